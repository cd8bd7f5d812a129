import Foundation
import HTTPServing
import Synchronization

/// Answers `/echo` with what it read of the request (method, path, query, the `name` parameter and the body),
/// `/unread` without reading the body, and `/held` once the test lets it go; refusals say their status and reason.
final class EchoHandler: HTTPRequestHandler {
    private let held = DispatchSemaphore(value: 0)
    private let holding = Mutex(0)

    func answer(_ request: ServerRequest) -> ServerResponse {
        switch request.path {
        case "/unread":
            return ServerResponse(status: 200, contentType: "text/plain", body: Array("unread\n".utf8))
        case "/held":
            holding.withLock { $0 += 1 }
            held.wait()
        default:
            break
        }
        var body: [UInt8] = []
        do {
            while let piece = try request.body.next(until: .now + .seconds(20)) { body += piece }
        } catch {
            return ServerResponse(status: 400, contentType: "text/plain", body: Array("\(error)".utf8))
        }
        let name = request.queryParameter("name").map { " name=\($0)" } ?? ""
        let summary = "\(request.method) \(request.path) query=\(request.query ?? "-")\(name) length=\(body.count)\n"
        return ServerResponse(status: 200, contentType: "text/plain", body: Array(summary.utf8) + body)
    }

    func refuse(_ rejection: RejectedRequest) -> ServerResponse {
        ServerResponse(
            status: rejection.status, contentType: "text/plain", body: Array("refused: \(rejection.reason)\n".utf8))
    }

    /// Requests waiting at `/held`.
    var requestsHeld: Int { holding.withLock { $0 } }

    /// Lets one request at `/held` go on.
    func release() { held.signal() }
}
