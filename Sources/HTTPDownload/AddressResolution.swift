import BlockingIO
import CLinuxEvents
import CTLS
import Glibc
import Synchronization

/// A host's addresses from the system's resolver (getaddrinfo), looked up on a thread of its own so that the wait is
/// bounded by the caller's time and cancellation: glibc's lookup itself can neither time out early nor be cancelled.
enum AddressResolution {
    /// One address to connect to.
    struct Address {
        var family: Int32
        var type: Int32
        var protocolNumber: Int32
        var bytes: [UInt8]
    }

    /// The addresses of `host`, in the resolver's order.
    static func addresses(
        of host: String, port: Int, expiries: [Expiry?], cancellation: CancellationSignal
    ) throws(HTTPFailure) -> [Address] {
        let lookup = Lookup()
        guard lookup.descriptor >= 0 else { throw .system(call: "eventfd", errno: errno) }
        let started = BackgroundThread.start { lookup.run(host: host, port: port) }
        guard started else { throw .system(call: "pthread_create", errno: EAGAIN) }
        try Waiting.until(lookup.descriptor, events: Int16(POLLIN), expiries: expiries, cancellation)
        // The thread sets the result before it writes the eventfd.
        guard let result = lookup.result.withLock({ $0 }) else { throw .system(call: "getaddrinfo", errno: EINVAL) }
        switch result {
        case .success(let addresses): return addresses
        case .failure(let failure): throw failure
        }
    }

    /// The lookup's result, handed from its thread through an eventfd the caller polls.
    private final class Lookup: Sendable {
        let descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        let result = Mutex<Result<[Address], HTTPFailure>?>(nil)

        deinit { if descriptor >= 0 { close(descriptor) } }

        func run(host: String, port: Int) {
            var hints = addrinfo()
            // No AI_ADDRCONFIG: on a machine whose only interface is loopback it hides 127.0.0.1 and ::1, and a
            // local server is what such a machine has. An address of a family with no route fails at once.
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            let found: Result<[Address], HTTPFailure>
            if status != 0 {
                let detail =
                    status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
                found = .failure(.nameDoesNotResolve(host: host, detail: detail))
            } else {
                var addresses: [Address] = []
                var entry = list
                while let current = entry {
                    let info = current.pointee
                    if let address = info.ai_addr {
                        let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen))
                        addresses.append(
                            Address(
                                family: info.ai_family, type: info.ai_socktype, protocolNumber: info.ai_protocol,
                                bytes: Array(bytes)))
                    }
                    entry = info.ai_next
                }
                freeaddrinfo(list)
                found =
                    addresses.isEmpty
                    ? .failure(.nameDoesNotResolve(host: host, detail: "no address")) : .success(addresses)
            }
            result.withLock { $0 = found }
            _ = eventfd_write(descriptor, 1)
        }
    }
}
