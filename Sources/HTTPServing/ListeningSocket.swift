import Glibc
import Synchronization

/// A TCP socket listening on one address, non-blocking (the accept loop polls it before it accepts).
final class ListeningSocket: Sendable {
    let descriptor: Int32
    private let closed = Atomic(false)
    /// The port bound: the one asked for, or the one the system picked for port 0.
    let port: Int

    /// Binds `host`'s first address that can be bound (a numeric address is used as it is; a name is resolved) and
    /// listens on it.
    init(host: String, port: Int) throws(HTTPServerFailure) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let looked = getaddrinfo(host, String(port), &hints, &list)
        guard looked == 0, let list else {
            throw HTTPServerFailure("\(host) is no address to listen on: \(String(cString: gai_strerror(looked)))")
        }
        defer { freeaddrinfo(list) }
        var failure = HTTPServerFailure("\(host) has no address to listen on")
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = socket(
                address.pointee.ai_family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                    | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard descriptor >= 0 else {
                failure = .system("socket", errno)
                continue
            }
            var one: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            guard bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0,
                listen(descriptor, 1024) == 0
            else {
                failure = HTTPServerFailure(
                    "cannot listen on \(host) port \(port): \(String(cString: strerror(errno)))")
                Glibc.close(descriptor)
                continue
            }
            self.descriptor = descriptor
            self.port = Self.boundPort(descriptor) ?? port
            return
        }
        throw failure
    }

    /// Stops listening: connections not yet accepted are refused.
    func close() {
        if !closed.exchange(true, ordering: .acquiringAndReleasing) { Glibc.close(descriptor) }
    }

    deinit { close() }

    private static func boundPort(_ descriptor: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        return withUnsafeBytes(of: storage) { bytes in
            // sin_port and sin6_port are both at offset 2, in network order.
            Int(UInt16(bytes[2]) << 8 | UInt16(bytes[3]))
        }
    }
}
