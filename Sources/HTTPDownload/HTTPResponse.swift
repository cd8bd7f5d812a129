import PostmortemCore

/// A response whose body is read as it comes, in the framing its head declares (a length, chunks, or the
/// connection's end).
package final class HTTPResponse {
    /// Its status and fields.
    package let head: HTTPResponseHead
    /// The address that answered, after redirects.
    package let address: WebAddress
    /// The body's length as `Content-Length` gave it; `nil` for chunks or a body that lasts until the connection ends.
    package let declaredLength: Int?
    private let reader: ResponseReader
    private var framing: Framing
    /// Where the connection goes once the body has been read to its end, when the server keeps it open.
    private var release: ((Connection) -> Void)?

    private enum Framing {
        case length(left: Int)
        /// `left` bytes of the current chunk; 0 before the first chunk's size and after each chunk's data.
        case chunked(left: Int, started: Bool)
        case untilClose
        case finished
    }

    /// - Parameter release: given the connection once the body has been read, when the server keeps it open.
    init(reading reader: ResponseReader, from address: WebAddress, release: @escaping (Connection) -> Void)
        throws(HTTPFailure)
    {
        var head = try Self.head(from: reader)
        // Interim answers (100 Continue, 103 Early Hints) come before the one that counts.
        while (100...199).contains(head.status) {
            guard head.status != 101 else { throw .badResponse("it switched protocols") }
            head = try Self.head(from: reader)
        }
        self.head = head
        self.address = address
        self.reader = reader
        let codings = head.fields(named: "Transfer-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingPrefix(while: \.isWhitespace).lowercased() }
        let lengths = head.fields(named: "Content-Length").flatMap { $0.split(separator: ",") }
            .map { String($0.filter { !$0.isSpaceOrTab }) }
        if head.status == 204 || head.status == 304 {
            (framing, declaredLength) = (.finished, nil)
        } else if let last = codings.last {
            (framing, declaredLength) = (
                last.hasPrefix("chunked") ? .chunked(left: 0, started: false) : .untilClose, nil
            )
        } else if let first = lengths.first {
            guard let length = Int(first), length >= 0, lengths.allSatisfy({ $0 == first }) else {
                throw .badResponse("Content-Length '\(lengths.joined(separator: ", "))'")
            }
            (framing, declaredLength) = (.length(left: length), length)
        } else {
            (framing, declaredLength) = (.untilClose, nil)
        }
        let connectionTokens = head.fields(named: "Connection").flatMap { $0.lowercased().split(separator: ",") }
        let closes = connectionTokens.contains { $0.trimmingPrefix(while: \.isWhitespace).hasPrefix("close") }
        if head.isHTTP11, !closes {
            self.release = release
        }
        switch framing {
        case .finished, .length(left: 0): finish()
        default: break
        }
    }

    /// The body has been read: the connection goes back to its pool, unless the server sent more than it declared.
    private func finish() {
        framing = .finished
        guard let release, !reader.hasUnreadBytes else { return }
        self.release = nil
        release(reader.connection)
    }

    /// Reads the rest of a body no one wants (an error page, a redirect's note) so that the connection can serve
    /// another request; a body of more than `limit` bytes is left, and its connection closed.
    package func discardBody(upTo limit: Int = 64 << 10) {
        var read = 0
        while read <= limit, let bytes = try? nextBytes() { read += bytes.count }
    }

    private static func head(from reader: ResponseReader) throws(HTTPFailure) -> HTTPResponseHead {
        var bytes: [UInt8] = []
        while true {
            let line = try reader.line()
            if line.isEmpty {
                // Empty lines before a status line are tolerated, as RFC 9112 asks of recipients.
                if bytes.isEmpty { continue }
                return try HTTPResponseHead(parsing: bytes[...])
            }
            bytes += line
            bytes.append(UInt8(ascii: "\n"))
            guard bytes.count <= ResponseReader.longestLine else { throw .badResponse("a head longer than 64 KiB") }
        }
    }

    /// The body's next bytes; `nil` at its end. Throws when the connection ends before the body does.
    package func nextBytes() throws(HTTPFailure) -> [UInt8]? {
        switch framing {
        case .finished:
            return nil
        case .untilClose:
            guard let bytes = try reader.bytes(upTo: 64 << 10) else {
                // A connection whose end ended the body cannot serve another request.
                framing = .finished
                return nil
            }
            return bytes
        case .length(let left):
            guard left > 0 else {
                finish()
                return nil
            }
            guard let bytes = try reader.bytes(upTo: left) else {
                throw .badResponse("the connection closed \(left) bytes before the body's end")
            }
            framing = .length(left: left - bytes.count)
            return bytes
        case .chunked(var left, let started):
            if left == 0 {
                // After a chunk's data comes its line break, then the next chunk's size.
                if started, try !reader.line().isEmpty { throw .badResponse("a chunk longer than its size") }
                let sizeLine = String(decoding: try reader.line(), as: UTF8.self)
                let size = sizeLine.prefix { $0 != ";" }.filter { !$0.isSpaceOrTab }
                guard let length = Int(size, radix: 16), length >= 0 else {
                    throw .badResponse("chunk size '\(sizeLine.prefix(40))'")
                }
                if length == 0 {
                    // The trailer's fields, which this client does not use, up to the empty line.
                    while try !reader.line().isEmpty {}
                    finish()
                    return nil
                }
                left = length
            }
            guard let bytes = try reader.bytes(upTo: left) else {
                throw .badResponse("the connection closed in the middle of a chunk")
            }
            framing = .chunked(left: left - bytes.count, started: true)
            return bytes
        }
    }
}
