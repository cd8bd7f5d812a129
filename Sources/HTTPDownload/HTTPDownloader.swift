import BlockingIO
import Synchronization

/// HTTP/1.1 GET over plain TCP or TLS (OpenSSL, the system's certificate authorities), redirects followed, every
/// wait bounded by ``HTTPLimits`` and ended at once by a ``CancellationSignal``: what a client of debuginfod servers
/// needs, and no more. A connection whose response was read to its end is kept for the next request to the same
/// server (a run asks one server for many files: each reuse saves a TCP and a TLS handshake). Blocking: callers run it
/// on threads of their own (``BackgroundThread``). Safe to use from any number of threads.
package final class HTTPDownloader: Sendable {
    private let tls = Mutex<Result<TLSContext, HTTPFailure>?>(nil)
    private let authorities: String?
    private let idle = Mutex<[Server: [(connection: Connection, since: ContinuousClock.Instant)]]>([:])

    /// Where a connection goes: scheme, host and port.
    private struct Server: Hashable {
        var secure: Bool
        var host: String
        var port: Int
    }

    /// Connections kept per server: as many as a run asks of one server at once (every image of a log).
    private static let idlePerServer = 8
    /// How long a connection is kept unused: servers close idle ones after a while (libmicrohttpd, nginx: a minute
    /// or more), and a connection they closed is found out before it is used; this only bounds what is held.
    private static let idleLifetime = Duration.seconds(30)

    /// - Parameter authorities: a PEM file of the only certificate authorities to trust; `nil` for the system's
    ///   (`SSL_CERT_FILE` and `SSL_CERT_DIR` when set, else the distribution's bundle).
    package init(trusting authorities: String? = nil) {
        self.authorities = authorities
    }

    /// The response to `GET url` with `fields` besides `Host`, `User-Agent` and `Accept`, after
    /// following up to `limits.maximumRedirects` redirects (never in a circle); its body is unread.
    /// - Parameter redirected: told each address redirected to, before it is asked.
    package func get(
        _ url: String, fields: [(name: String, value: String)] = [], limits: HTTPLimits,
        cancellation: CancellationSignal, redirected: (WebAddress) -> Void = { _ in }
    ) throws(HTTPFailure) -> HTTPResponse {
        var address = try WebAddress(url)
        var visited = [address.description]
        while true {
            let response = try request(address, fields: fields, limits: limits, cancellation: cancellation)
            guard [301, 302, 303, 307, 308].contains(response.head.status),
                let location = response.head.field("Location")
            else {
                return response
            }
            response.discardBody()
            guard visited.count <= limits.maximumRedirects else {
                throw .redirects("redirected more than \(limits.maximumRedirects) times")
            }
            let next = try address.resolving(location)
            guard !visited.contains(next.description) else {
                throw .redirects("redirected in a circle: " + (visited + [next.description]).joined(separator: " → "))
            }
            visited.append(next.description)
            redirected(next)
            address = next
        }
    }

    private func request(
        _ address: WebAddress, fields: [(name: String, value: String)], limits: HTTPLimits,
        cancellation: CancellationSignal
    ) throws(HTTPFailure) -> HTTPResponse {
        var head = "GET \(address.target) HTTP/1.1\r\nHost: \(address.hostField)\r\n"
        head += "User-Agent: postmortem\r\nAccept: */*\r\n"
        if let credentials = address.credentials {
            head += "Authorization: Basic \(Base64.encode(Array(credentials.utf8)))\r\n"
        }
        for (name, value) in fields {
            guard !(name + value).utf8.contains(where: { $0 == 13 || $0 == 10 }) else {
                throw .badURL("a line break in the field \(name)")
            }
            head += "\(name): \(value)\r\n"
        }
        head += "\r\n"
        let bytes = Array(head.utf8)
        let server = Server(secure: address.secure, host: address.host, port: address.port)
        let release: (Connection) -> Void = { [self] connection in keep(connection, for: server) }
        if let kept = takeKept(for: server) {
            kept.serve(limits: limits, cancellation: cancellation)
            do throws(HTTPFailure) {
                try kept.write(bytes)
                return try HTTPResponse(reading: ResponseReader(kept), from: address, release: release)
            } catch .cancelled {
                throw .cancelled
            } catch .deadlineExceeded {
                throw .deadlineExceeded
            } catch .idleTimeout {
                throw .idleTimeout
            } catch {
                // The server closed the kept connection as the request went out: asked again on a new one.
            }
        }
        let connection = try Connection.open(
            to: address, limits: limits, tls: tlsContext, cancellation: cancellation)
        try connection.write(bytes)
        return try HTTPResponse(reading: ResponseReader(connection), from: address, release: release)
    }

    /// The most recently kept connection to `server` that can still carry a request.
    private func takeKept(for server: Server) -> Connection? {
        while true {
            let candidate = idle.withLock { idle -> (connection: Connection, since: ContinuousClock.Instant)? in
                idle[server]?.popLast()
            }
            guard let candidate else { return nil }
            if candidate.since.duration(to: .now) < Self.idleLifetime, candidate.connection.isReusable {
                return candidate.connection
            }
        }
    }

    private func keep(_ connection: Connection, for server: Server) {
        idle.withLock { idle in
            var kept = idle[server, default: []].filter { $0.since.duration(to: .now) < Self.idleLifetime }
            if kept.count >= Self.idlePerServer { kept.removeFirst() }
            kept.append((connection, .now))
            idle[server] = kept
        }
    }

    /// The TLS context, made at the first https request (reading the certificate authorities takes a while).
    private func tlsContext() throws(HTTPFailure) -> TLSContext {
        let made = tls.withLock { made in
            if let made { return made }
            do throws(HTTPFailure) {
                made = .success(try TLSContext(authorities: authorities))
            } catch {
                made = .failure(error)
            }
            return made!
        }
        return try made.get()
    }
}

/// RFC 4648's base64, for Basic authentication.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                encoded.append(
                    position <= count ? alphabet[Int(group >> UInt32(18 - 6 * position) & 63)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
