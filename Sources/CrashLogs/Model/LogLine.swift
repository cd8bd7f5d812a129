/// One line of a log: its bytes exactly as read (line ending included), and its text for parsing.
public struct LogLine: Hashable, Sendable {
    /// The bytes, with the line ending (`\n`, `\r\n` or none on the last line).
    public var bytes: [UInt8]
    /// The text without the line ending; invalid UTF-8 reads as U+FFFD here, never in ``bytes``.
    public var text: String

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        var end = bytes.count
        if end > 0, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        if end > 0, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        text = String(decoding: bytes[0..<end], as: UTF8.self)
    }

    /// The line ending the line carries (empty for a last line without one).
    public var ending: [UInt8] {
        if bytes.last == UInt8(ascii: "\n") { return bytes.count >= 2 && bytes[bytes.count - 2] == UInt8(ascii: "\r") ? [13, 10] : [10] }
        return []
    }

    /// Splits `bytes` into lines, keeping every byte.
    public static func split(_ bytes: [UInt8]) -> [LogLine] {
        var lines: [LogLine] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            lines.append(LogLine(bytes: Array(bytes[start...index])))
            start = index + 1
        }
        if start < bytes.count { lines.append(LogLine(bytes: Array(bytes[start...]))) }
        return lines
    }
}
