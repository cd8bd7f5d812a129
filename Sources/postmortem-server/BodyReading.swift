import Hummingbird
import NIOCore
import SymbolicationService

/// A request's body, read whole within the server's limits: one over the size limit gets 413, one still arriving at
/// the request's deadline gets 504. The pieces are gathered into one buffer (a copy of each, no more): this runs on
/// the tasks that serve every request, so it must not hold them up. (A client that stops sending altogether is cut off by the connection's idle
/// timeout.) The deadline is checked as each piece arrives, not raced against a timer task: a task group with a
/// sleeping child per request kept memory of every request it served.
enum BodyReading {
    static func read(_ request: Request, limit: Int, deadline: ContinuousClock.Instant) async throws(ServiceError) -> ByteBuffer {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw tooLarge(limit)
        }
        var bytes = ByteBuffer()
        do {
            for try await var piece in request.body {
                guard bytes.readableBytes + piece.readableBytes <= limit else { throw tooLarge(limit) }
                guard ContinuousClock.now < deadline else { throw ServiceError(status: 504, "the body did not arrive in time") }
                bytes.writeBuffer(&piece)
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw .badRequest("the body could not be read: \(error)")
        }
        return bytes
    }

    private static func tooLarge(_ limit: Int) -> ServiceError {
        ServiceError(status: 413, "the body is larger than \(limit) bytes (--max-body-size)")
    }
}
