import Hummingbird
import Prometheus
import SymbolicationService

/// Counts each request by route and status, and times it, for `/metrics`. Routes not served count as `other`, so
/// that a client requesting random paths cannot grow the metrics without bound.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let metrics: ServerMetrics
    /// The routes served, with the one method each takes.
    private static let routes: [String: HTTPRequest.Method] = [
        "/health": .get, "/metrics": .get, "/symbolicate/v5": .post, "/symbolicate": .post, "/minidump": .post
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        let route = Self.routes[request.uri.path] != nil ? request.uri.path : "other"
        metrics.requestsInFlight.increment()
        defer { metrics.requestsInFlight.decrement() }
        do {
            let response = try await next(request, context)
            metrics.record(route: route, status: response.status.code, duration: start.duration(to: .now))
            return response
        } catch {
            var status = (error as? any HTTPResponseError)?.status.code ?? 500
            // A route that is served, asked with a method it does not take: 405, and the method it takes.
            let allowed = status == 404 ? Self.routes[request.uri.path] : nil
            if allowed != nil { status = 405 }
            metrics.record(route: route, status: status, duration: start.duration(to: .now))
            // A route that is not served, or a method it does not take: said in one line, as every error is.
            let reason =
                switch (status, allowed) {
                case (405, let method?): "\(request.uri.path) takes \(method.rawValue), not \(request.method.rawValue)"
                case (404, _): "no such route: \(request.method) \(request.uri.path)"
                default: "\(error)"
                }
            var response = SymbolicationServer.errorResponse(ServiceError(status: status, reason))
            if let allowed { response.headers[.allow] = allowed.rawValue }
            return response
        }
    }
}
