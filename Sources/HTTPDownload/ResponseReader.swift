/// The bytes of one connection, buffered: lines for heads and chunk sizes, runs of bytes for bodies.
final class ResponseReader {
    let connection: Connection
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private var start = 0
    private var end = 0

    /// The longest line read (a head's field, a chunk's size): longer is not HTTP this client believes.
    static let longestLine = 64 << 10

    init(_ connection: Connection) { self.connection = connection }

    /// The next line, without its line break; throws at the stream's end or past ``longestLine``.
    func line() throws(HTTPFailure) -> ArraySlice<UInt8> {
        var searched = start
        while true {
            if let newline = buffer[searched..<end].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                start = newline + 1
                return line
            }
            guard end - start <= Self.longestLine else { throw .badResponse("a line longer than 64 KiB") }
            let kept = end - start
            guard try fill() else {
                throw .badResponse(
                    kept == 0 ? "the connection closed before a response" : "the connection closed mid-line")
            }
            searched = start + kept
        }
    }

    /// Whether bytes were read that no caller has taken (after a response's end: a server's error).
    var hasUnreadBytes: Bool { start < end }

    /// Up to `limit` bytes of what has come; `nil` at the stream's end.
    func bytes(upTo limit: Int) throws(HTTPFailure) -> [UInt8]? {
        if start == end, try !fill() { return nil }
        let count = min(limit, end - start)
        defer { start += count }
        return Array(buffer[start..<start + count])
    }

    /// Reads more after what is buffered; `false` at the stream's end.
    private func fill() throws(HTTPFailure) -> Bool {
        if start == end {
            (start, end) = (0, 0)
        } else if end == buffer.count {
            if start > 0 {
                buffer.replaceSubrange(0..<end - start, with: buffer[start..<end])
                (start, end) = (0, end - start)
            } else {
                buffer.append(contentsOf: repeatElement(0, count: buffer.count))
            }
        }
        let received = try connection.read(into: &buffer, from: end)
        end += received
        return received > 0
    }
}
