import Hummingbird
import NIOCore
import ObjectFiles
import PostmortemCore
import SymbolicationService

/// A request's body, read whole within the server's limits: one over the size limit gets 413, one still arriving at
/// the request's deadline gets 504. The pieces are gathered into one buffer (a copy of each, no more): this runs on
/// the tasks that serve every request, so it must not hold them up. (A client that stops sending altogether is cut off by the connection's idle
/// timeout.) The deadline is checked as each piece arrives, not raced against a timer task: a task group with a
/// sleeping child per request kept memory of every request it served.
enum BodyReading {
    static func read(_ request: Request, limit: Int, deadline: ContinuousClock.Instant) async throws(ServiceError)
        -> ByteBuffer
    {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw tooLarge(limit)
        }
        var bytes = ByteBuffer()
        do {
            for try await var piece in request.body {
                guard bytes.readableBytes + piece.readableBytes <= limit else { throw tooLarge(limit) }
                guard ContinuousClock.now < deadline else {
                    throw ServiceError(status: 504, "the body did not arrive in time")
                }
                bytes.writeBuffer(&piece)
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw .badRequest("the body could not be read: \(error)")
        }
        return bytes
    }

    /// The body written to a temporary file as it arrives (within the same limits) and mapped: the file is removed
    /// at once, and its pages stay readable as long as the mapping lives.
    static func spool(_ request: Request, limit: Int, deadline: ContinuousClock.Instant) async throws(ServiceError)
        -> ImmutableBytes
    {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw tooLarge(limit)
        }
        let folder = FileSystem.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let file: FileSystem.AtomicFile
        do { file = try FileSystem.AtomicFile(path: folder + "/postmortem-upload", permissions: 0o600) } catch {
            throw ServiceError(status: 503, "the upload could not be stored: \(error.detail)")
        }
        do {
            for try await piece in request.body {
                guard file.count + piece.readableBytes <= limit else { throw tooLarge(limit) }
                guard ContinuousClock.now < deadline else {
                    throw ServiceError(status: 504, "the body did not arrive in time")
                }
                try file.append(piece.readableBytesView.map { $0 })
            }
        } catch let error as ServiceError {
            throw error
        } catch let error as FileSystem.Failure {
            throw ServiceError(status: 503, "the upload could not be stored: \(error.detail)")
        } catch {
            throw .badRequest("the body could not be read: \(error)")
        }
        guard file.count > 0 else { throw .badRequest("the body is empty") }
        do { return try ImmutableBytes(mapping: file.temporary) } catch {
            throw ServiceError(status: 503, "the upload could not be read back: \(error)")
        }
        // `file` is dropped here without a commit: its temporary file is removed, its mapping stays.
    }

    private static func tooLarge(_ limit: Int) -> ServiceError {
        ServiceError(status: 413, "the body is larger than \(limit) bytes (--max-body-size)")
    }
}
