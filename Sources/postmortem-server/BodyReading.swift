import Hummingbird
import NIOCore
import SymbolicationService

/// A request's body, read whole within the server's limits: one over the size limit gets 413, one that does not
/// arrive before the request's deadline gets 504.
enum BodyReading {
    static func read(_ request: Request, limit: Int, deadline: ContinuousClock.Instant) async throws(ServiceError) -> [UInt8] {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw tooLarge(limit)
        }
        do {
            let buffer = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await request.body.collect(upTo: limit) }
                group.addTask {
                    try await Task.sleep(until: deadline, clock: .continuous)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let buffer else { throw ServiceError(status: 504, "the body did not arrive in time") }
            return Array(buffer.readableBytesView)
        } catch let error as ServiceError {
            throw error
        } catch is NIOTooManyBytesError {
            throw tooLarge(limit)
        } catch {
            throw .badRequest("the body could not be read: \(error)")
        }
    }

    private static func tooLarge(_ limit: Int) -> ServiceError {
        ServiceError(status: 413, "the body is larger than \(limit) bytes (--max-body-size)")
    }
}
