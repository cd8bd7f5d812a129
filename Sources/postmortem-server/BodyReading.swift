import HTTPServing
import ObjectFiles
import PostmortemCore
import SymbolicationService

/// A request's body, read whole within the server's limits: one over the size limit gets 413, one still arriving at
/// the request's deadline gets 504. (A client that stops sending altogether is cut off by the connection's idle
/// timeout.)
enum BodyReading {
    static func read(_ request: ServerRequest, limit: Int, deadline: ContinuousClock.Instant) throws(ServiceError)
        -> [UInt8]
    {
        if let declared = request.body.declaredLength, declared > limit { throw tooLarge(limit) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(request.body.declaredLength ?? 0)
        while let piece = try next(request.body, deadline: deadline) {
            guard bytes.count + piece.count <= limit else { throw tooLarge(limit) }
            bytes += piece
        }
        return bytes
    }

    /// The body written to a temporary file as it arrives (within the same limits) and mapped: the file is removed
    /// at once, and its pages stay readable as long as the mapping lives.
    static func spool(_ request: ServerRequest, limit: Int, deadline: ContinuousClock.Instant) throws(ServiceError)
        -> ImmutableBytes
    {
        if let declared = request.body.declaredLength, declared > limit { throw tooLarge(limit) }
        let folder = FileSystem.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let file: FileSystem.AtomicFile
        do { file = try FileSystem.AtomicFile(path: folder + "/postmortem-upload", permissions: 0o600) } catch {
            throw ServiceError(status: 503, "the upload could not be stored: \(error.detail)")
        }
        while let piece = try next(request.body, deadline: deadline) {
            guard file.count + piece.count <= limit else { throw tooLarge(limit) }
            do { try file.append(piece) } catch {
                throw ServiceError(status: 503, "the upload could not be stored: \(error.detail)")
            }
        }
        guard file.count > 0 else { throw .badRequest("the body is empty") }
        do { return try ImmutableBytes(mapping: file.temporary) } catch {
            throw ServiceError(status: 503, "the upload could not be read back: \(error)")
        }
        // `file` is dropped here without a commit: its temporary file is removed, its mapping stays.
    }

    private static func next(_ body: RequestBody, deadline: ContinuousClock.Instant) throws(ServiceError) -> [UInt8]? {
        do { return try body.next(until: deadline) } catch {
            switch error {
            case .deadlinePassed: throw ServiceError(status: 504, "the body did not arrive in time")
            default: throw .badRequest("the body could not be read: \(error)")
            }
        }
    }

    private static func tooLarge(_ limit: Int) -> ServiceError {
        ServiceError(status: 413, "the body is larger than \(limit) bytes (--max-body-size)")
    }
}
