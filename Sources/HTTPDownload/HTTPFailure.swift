import Glibc

/// Why a request ended without a response to read, worded for a sentence that starts with the server's name.
package enum HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL cannot be asked (its scheme, its host, its port).
    case badURL(String)
    /// The host's name gave no address.
    case nameDoesNotResolve(host: String, detail: String)
    /// Every address of the host refused the connection.
    case connectionRefused
    /// No connection (TLS handshake included) within the connect timeout.
    case connectTimeout
    /// Nothing received, or nothing could be sent, for the idle timeout.
    case idleTimeout
    /// The request's deadline passed.
    case deadlineExceeded
    /// Its cancellation signal was raised.
    case cancelled
    /// The server's certificate was not trusted, with OpenSSL's reason.
    case certificateRejected(String)
    /// TLS failed otherwise, with OpenSSL's reason.
    case tls(String)
    /// What came back is not an HTTP response this client reads.
    case badResponse(String)
    /// Redirects that loop or go on too long, or lead elsewhere than http and https.
    case redirects(String)
    /// A system call failed.
    case system(call: String, errno: Int32)

    package var description: String {
        switch self {
        case .badURL(let why): "is not a URL this client asks (\(why))"
        case .nameDoesNotResolve(let host, let detail): "has a name that does not resolve (\(host): \(detail))"
        case .connectionRefused: "refused the connection"
        case .connectTimeout: "did not accept a connection in time"
        case .idleTimeout: "sent nothing in time"
        case .deadlineExceeded: "did not finish in time"
        case .cancelled: "was not waited for"
        case .certificateRejected(let why): "sent a certificate that is not trusted (\(why))"
        case .tls(let why): "failed in TLS (\(why))"
        case .badResponse(let why): "sent a response that is not HTTP/1.1 (\(why))"
        case .redirects(let why): why
        case .system(let call, let errno): "failed: \(call): \(String(cString: strerror(errno)))"
        }
    }
}
