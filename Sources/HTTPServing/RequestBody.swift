/// Why a request's body could not be read whole.
package enum RequestBodyFailure: Error, CustomStringConvertible {
    /// The request's deadline passed before the body had come.
    case deadlinePassed
    /// The chunked framing is broken.
    case malformed(String)
    /// The client closed the connection, stopped sending for the idle timeout, or the connection failed.
    case cut(String)

    package var description: String {
        switch self {
        case .deadlinePassed: "the body did not arrive in time"
        case .malformed(let reason): "the body's chunked framing is broken: \(reason)"
        case .cut(let reason): "the body was cut short: \(reason)"
        }
    }
}

/// A request's body, read as it arrives, a piece at a time, by the thread that answers the request: framed by its
/// `Content-Length` or by chunks. A client that asked to be told to go on (`Expect: 100-continue`) is told when
/// the body is first read, not before: a request answered without its body (one declared too large) is not sent.
package final class RequestBody {
    /// The length the request declared (`Content-Length`); `nil` for a chunked body.
    package let declaredLength: Int?
    private let stream: ConnectionStream
    private var state: State
    private var continueWanted: Bool
    /// Bytes of chunk-size lines and trailers taken, bounded: they carry no body.
    private var framingBytes = 0
    private static let pieceSize = 64 << 10
    private static let maximumFramingBytes = 64 << 10

    enum State {
        case length(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailers
        case done
    }

    init(stream: ConnectionStream, declaredLength: Int?, chunked: Bool, expectsContinue: Bool) {
        self.stream = stream
        self.declaredLength = declaredLength
        state = chunked ? .chunkSize : .length(remaining: declaredLength ?? 0)
        continueWanted = expectsContinue && (chunked || (declaredLength ?? 0) > 0)
    }

    /// Whether the body has been read to its end (then the connection can carry the client's next request).
    package var isComplete: Bool {
        switch state {
        case .done: true
        case .length(let remaining): remaining == 0
        default: false
        }
    }

    /// The body's next piece (at most 64 KiB); `nil` once it has all been read. Each wait for the client is
    /// bounded by the idle timeout and never goes past `deadline`.
    package func next(until deadline: ContinuousClock.Instant) throws(RequestBodyFailure) -> [UInt8]? {
        while true {
            switch state {
            case .done:
                return nil
            case .length(let remaining):
                guard remaining > 0 else { return nil }
                try fill(until: deadline)
                let piece = stream.take(upTo: min(remaining, Self.pieceSize))
                state = .length(remaining: remaining - piece.count)
                return piece
            case .chunkData(let remaining):
                try fill(until: deadline)
                let piece = stream.take(upTo: min(remaining, Self.pieceSize))
                state = piece.count == remaining ? .chunkEnd : .chunkData(remaining: remaining - piece.count)
                return piece
            case .chunkSize:
                let line = try framingLine(until: deadline)
                let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 0x20 && $0 != 0x09 }
                guard !digits.isEmpty, digits.count <= 15,
                    let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
                else {
                    throw .malformed("\(String(decoding: line.prefix(40), as: UTF8.self)) is no chunk size")
                }
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkEnd:
                guard try framingLine(until: deadline).isEmpty else {
                    throw .malformed("a chunk is longer than its size")
                }
                state = .chunkSize
            case .trailers:
                if try framingLine(until: deadline).isEmpty { state = .done }
            }
        }
    }

    /// Waits for at least one byte.
    private func fill(until deadline: ContinuousClock.Instant) throws(RequestBodyFailure) {
        guard stream.buffered == 0 else { return }
        if continueWanted {
            continueWanted = false
            do { try stream.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) } catch { throw Self.failure(error) }
        }
        do { try stream.receive(until: deadline) } catch { throw Self.failure(error) }
    }

    /// A chunk-size line, a chunk's end or a trailer line, without its line end.
    private func framingLine(until deadline: ContinuousClock.Instant) throws(RequestBodyFailure) -> [UInt8] {
        while true {
            if let newline = stream.buffer[stream.start...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = stream.take(upTo: newline + 1 - stream.start)
                framingBytes += line.count
                guard framingBytes <= Self.maximumFramingBytes else {
                    throw .malformed("its framing lines are too long")
                }
                line.removeLast()
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return line
            }
            guard framingBytes + stream.buffered <= Self.maximumFramingBytes else {
                throw .malformed("its framing lines are too long")
            }
            if stream.buffered == 0 {
                try fill(until: deadline)
            } else {
                do { try stream.receive(until: deadline) } catch { throw Self.failure(error) }
            }
        }
    }

    private static func failure(_ end: ConnectionEnd) -> RequestBodyFailure {
        switch end {
        case .deadline: .deadlinePassed
        case .closedByClient: .cut("the client closed the connection")
        case .idle: .cut("nothing came for the idle timeout")
        case .stopping: .cut("the server stops")
        case .failed(let call, let number): .cut("\(call) failed (errno \(number))")
        }
    }
}
