import Hummingbird
import SymbolicationService

/// Counts each request by route and status, and times it, for `/metrics`. Routes not served count as `other`, so
/// that a client requesting random paths cannot grow the metrics without bound.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let metrics: ServerMetrics
    private static let routes: Set<String> = ["/health", "/metrics", "/symbolicate/v5", "/symbolicate", "/minidump"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let route = Self.routes.contains(request.uri.path) ? request.uri.path : "other"
        metrics.requestsInFlight.increment()
        defer { metrics.requestsInFlight.decrement() }
        do {
            let response = try await next(request, context)
            metrics.record(route: route, status: response.status.code, duration: start.duration(to: .now))
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.record(route: route, status: status, duration: start.duration(to: .now))
            // A route that is not served, or a method it does not take: said in one line, as every error is.
            let reason = status == 404 ? "no such route: \(request.method) \(request.uri.path)" : "\(error)"
            return SymbolicationServer.errorResponse(ServiceError(status: status, reason))
        }
    }
}
