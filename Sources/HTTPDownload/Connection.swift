import BlockingIO
import CTLS
import Glibc
import Synchronization

/// One TCP connection, plain or TLS, each of whose waits is bounded: by the connect timeout while it is made (name
/// lookup and TLS handshake included), then by the idle timeout per read or write, always by the request's
/// deadline, and ended at once by its cancellation signal. Kept between requests to the same server, it serves one
/// request at a time, and each request gives it its own bounds (``serve(limits:cancellation:)``).
final class Connection: Sendable {
    /// What changes from one request to the next, and OpenSSL's session: behind a lock that only the connection's one
    /// owner at a time (the request using it, or the downloader's pool between requests) ever takes, so that the
    /// compiler checks that no two threads use the session at once.
    private struct State {
        var tls: OpaquePointer?
        var idleTimeout: Duration?
        var deadline: Expiry?
        var cancellation: CancellationSignal
    }

    private let descriptor: Int32
    private let state: Mutex<State>

    private init(
        descriptor: Int32, idleTimeout: Duration?, deadline: Expiry?, cancellation: CancellationSignal
    ) {
        self.descriptor = descriptor
        state = Mutex(State(tls: nil, idleTimeout: idleTimeout, deadline: deadline, cancellation: cancellation))
    }

    deinit {
        state.withLock { state in
            if let tls = state.tls { SSL_free(tls) }
        }
        close(descriptor)
    }

    /// A connection to `address`'s host, trying its addresses in the resolver's order, with TLS for https.
    static func open(
        to address: WebAddress, limits: HTTPLimits, tls context: () throws(HTTPFailure) -> TLSContext,
        cancellation: CancellationSignal
    ) throws(HTTPFailure) -> Connection {
        let deadline = limits.deadline.map { Expiry(moment: $0, failure: .deadlineExceeded) }
        let connecting = Expiry.after(limits.connectTimeout, .connectTimeout)
        let addresses = try AddressResolution.addresses(
            of: address.host, port: address.port, expiries: [connecting, deadline], cancellation: cancellation)
        // A refusal or a timeout says more than an address of a family with no route.
        var failure: HTTPFailure?
        for (index, candidate) in addresses.enumerated() {
            // An address that drops connection attempts (IPv6 with no route past the first hop, say) gets its share
            // of what is left, so that the next one is still tried within the connect timeout.
            var attempt = connecting
            if let moment = connecting?.moment {
                let share = ContinuousClock.now.duration(to: moment) / (addresses.count - index)
                attempt = Expiry(moment: .now + share, failure: .connectTimeout)
            }
            do throws(HTTPFailure) {
                let descriptor = try connect(to: candidate, expiries: [attempt, deadline], cancellation)
                let connection = Connection(
                    descriptor: descriptor, idleTimeout: limits.idleTimeout, deadline: deadline,
                    cancellation: cancellation)
                if address.secure {
                    try connection.handshake(
                        with: address.host, context: try context(), expiries: [connecting, deadline])
                }
                return connection
            } catch .connectionRefused {
                failure = .connectionRefused
            } catch .connectTimeout where index < addresses.count - 1 {
                failure = .connectTimeout
            } catch .system(let call, let number) {
                // An address of a family this machine cannot reach; the next may do.
                if failure == nil { failure = .system(call: call, errno: number) }
            }
        }
        throw failure ?? .connectionRefused
    }

    private static func connect(
        to address: AddressResolution.Address, expiries: [Expiry?], _ cancellation: CancellationSignal
    ) throws(HTTPFailure) -> Int32 {
        let descriptor = socket(
            address.family, address.type | Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue),
            address.protocolNumber)
        guard descriptor >= 0 else { throw .system(call: "socket", errno: errno) }
        do throws(HTTPFailure) {
            let started = address.bytes.withUnsafeBytes { bytes in
                Glibc.connect(
                    descriptor, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
            }
            if started != 0 {
                guard errno == EINPROGRESS else { throw Self.connectFailure(errno) }
                try Waiting.until(descriptor, events: Int16(POLLOUT), expiries: expiries, cancellation)
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
                    throw .system(call: "getsockopt", errno: errno)
                }
                if error != 0 { throw Self.connectFailure(error) }
            }
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Takes the bounds and cancellation of the request it serves next.
    func serve(limits: HTTPLimits, cancellation: CancellationSignal) {
        state.withLock { state in
            state.idleTimeout = limits.idleTimeout
            state.deadline = limits.deadline.map { Expiry(moment: $0, failure: .deadlineExceeded) }
            state.cancellation = cancellation
        }
    }

    /// Whether a connection kept idle can still carry a request: nothing may have arrived on it meanwhile (a server
    /// that closed it sends its end, or a TLS close alert). Checked without waiting.
    var isReusable: Bool {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        guard poll(&descriptors, 1, 0) == 0 else {
            guard descriptors[0].revents & Int16(POLLIN) != 0 else { return false }
            return state.withLock { state in
                guard let tls = state.tls else { return false }
                // TLS 1.3 servers send session tickets after the handshake: records with no data for the caller.
                var byte: UInt8 = 0
                ERR_clear_error()
                let peeked = SSL_peek(tls, &byte, 1)
                let wantsMore = peeked <= 0 && SSL_get_error(tls, peeked) == SSL_ERROR_WANT_READ
                ERR_clear_error()
                return wantsMore
            }
        }
        return true
    }

    private static func connectFailure(_ number: Int32) -> HTTPFailure {
        number == ECONNREFUSED ? .connectionRefused : .system(call: "connect", errno: number)
    }

    private func handshake(with host: String, context: TLSContext, expiries: [Expiry?]) throws(HTTPFailure) {
        try state.withLock { state throws(HTTPFailure) in
            try Self.handshake(
                &state, descriptor: descriptor, host: host, context: context, expiries: expiries)
        }
    }

    private static func handshake(
        _ state: inout State, descriptor: Int32, host: String, context: TLSContext, expiries: [Expiry?]
    ) throws(HTTPFailure) {
        guard let tls = SSL_new(context.context) else { throw .tls(TLSContext.lastError() ?? "SSL_new failed") }
        state.tls = tls
        SSL_set_fd(tls, descriptor)
        var address = in6_addr()
        let isLiteral =
            inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
        // A name is checked against the certificate's names and sent for SNI; an address against its IP entries.
        let named =
            isLiteral
            ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(tls), host) == 1
            : SSL_set1_host(tls, host) == 1 && postmortem_tls_set_server_name(tls, host) == 1
        guard named else { throw .tls(TLSContext.lastError() ?? "the host name could not be set") }
        while true {
            ERR_clear_error()
            let result = SSL_connect(tls)
            if result == 1 { return }
            let error = SSL_get_error(tls, result)
            switch error {
            case SSL_ERROR_WANT_READ:
                try Waiting.until(descriptor, events: Int16(POLLIN), expiries: expiries, state.cancellation)
            case SSL_ERROR_WANT_WRITE:
                try Waiting.until(descriptor, events: Int16(POLLOUT), expiries: expiries, state.cancellation)
            default:
                let verification = SSL_get_verify_result(tls)
                if verification != X509_V_OK {
                    var why = String(cString: X509_verify_cert_error_string(verification))
                    if context.authorities.isEmpty {
                        why += "; no certificate authorities were found: set SSL_CERT_FILE"
                    }
                    ERR_clear_error()
                    throw .certificateRejected(why)
                }
                throw .tls(TLSContext.lastError() ?? Self.sslFailure(error))
            }
        }
    }

    private static func sslFailure(_ code: Int32) -> String {
        code == SSL_ERROR_SYSCALL
            ? (errno == 0 ? "the server closed the connection" : String(cString: strerror(errno)))
            : "SSL error \(code)"
    }

    /// Sends all of `bytes`.
    func write(_ bytes: [UInt8]) throws(HTTPFailure) {
        var sent = 0
        while sent < bytes.count {
            let count = try state.withLock { state throws(HTTPFailure) -> Int in
                try bytes.withUnsafeBytes { all in
                    Result { () throws(HTTPFailure) -> Int in
                        let rest = UnsafeMutableRawBufferPointer(
                            mutating: UnsafeRawBufferPointer(rebasing: all[sent...]))
                        return try Self.transfer(writing: true, buffer: rest, descriptor: descriptor, state: state)
                    }
                }.get()
            }
            guard count > 0 else { throw .badResponse("the server closed the connection before the request was sent") }
            sent += count
        }
    }

    /// Reads what has come into `buffer` from `offset` to its end; 0 at the end of the stream.
    func read(into buffer: inout [UInt8], from offset: Int) throws(HTTPFailure) -> Int {
        try state.withLock { state throws(HTTPFailure) -> Int in
            try buffer.withUnsafeMutableBytes { all in
                Result { () throws(HTTPFailure) -> Int in
                    try Self.transfer(
                        writing: false, buffer: UnsafeMutableRawBufferPointer(rebasing: all[offset...]),
                        descriptor: descriptor, state: state)
                }
            }.get()
        }
    }

    private static func transfer(
        writing: Bool, buffer: UnsafeMutableRawBufferPointer, descriptor: Int32, state: State
    ) throws(HTTPFailure) -> Int {
        let (deadline, cancellation) = (state.deadline, state.cancellation)
        let idle = Expiry.after(state.idleTimeout, .idleTimeout)
        while true {
            if let tls = state.tls {
                ERR_clear_error()
                let count =
                    writing
                    ? SSL_write(tls, buffer.baseAddress, Int32(clamping: buffer.count))
                    : SSL_read(tls, buffer.baseAddress, Int32(clamping: buffer.count))
                if count > 0 { return Int(count) }
                let error = SSL_get_error(tls, count)
                switch error {
                case SSL_ERROR_ZERO_RETURN: return 0
                case SSL_ERROR_WANT_READ:
                    try Waiting.until(descriptor, events: Int16(POLLIN), expiries: [idle, deadline], cancellation)
                case SSL_ERROR_WANT_WRITE:
                    try Waiting.until(descriptor, events: Int16(POLLOUT), expiries: [idle, deadline], cancellation)
                case SSL_ERROR_SYSCALL where errno == 0:
                    return 0
                default:
                    throw .tls(TLSContext.lastError() ?? Self.sslFailure(error))
                }
            } else {
                let count =
                    writing
                    ? send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                    : recv(descriptor, buffer.baseAddress, buffer.count, 0)
                if count >= 0 { return count }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK:
                    let events = Int16(writing ? POLLOUT : POLLIN)
                    try Waiting.until(descriptor, events: events, expiries: [idle, deadline], cancellation)
                default:
                    throw .system(call: writing ? "send" : "recv", errno: errno)
                }
            }
        }
    }
}
