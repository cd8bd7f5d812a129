import CrashLogs
import LogFraming
import TestSupport
import Testing

/// Lines keep their text only and give their bytes back from it: every byte must come back as read.
@Suite("Log lines")
struct LogLineTests {
    @Test func bytesComeBackExactly() {
        let log: [UInt8] =
            Array("first\nsecond\r\n".utf8) + [0x66, 0xFF, 0xFE, 0x0A]
            + Array("nul \0 inside\n\u{2713} ok\r\nlast\r".utf8)
        let lines = LogLine.split(log)
        #expect(lines.count == 6)
        #expect(lines.flatMap(\.bytes) == log)
        var appended: [UInt8] = []
        lines.forEach { $0.append(to: &appended) }
        #expect(appended == log)
        #expect(lines.map(\.text) == ["first", "second", "f\u{FFFD}\u{FFFD}", "nul \0 inside", "\u{2713} ok", "last"])
        #expect(lines.map(\.ending) == [[10], [13, 10], [10], [10], [13, 10], []])
        #expect(LogLine(bytes: [0xC3]).bytes == [0xC3], "a cut multi-byte character stays as read")
    }

    /// The bytes readers test lines by without reading them: the text's first byte, its last that is not a blank, as
    /// read and after a logger's prefix is moved off the text.
    @Test(arguments: 0..<4)
    func theEndBytesAreTheTexts(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pieces: [[UInt8]] = [
            Array(" ".utf8), Array("\t".utf8), Array("#0".utf8), Array("]".utf8), Array("\u{2713}".utf8), [0xFF],
            Array("Thread 0:".utf8), Array("\r".utf8), Array("x".utf8)
        ]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                bytes += pieces[Int.random(in: 0..<pieces.count, using: &random)]
            }
            if Bool.random(using: &random) { bytes.append(UInt8(ascii: "\n")) }
            var line = LogLine(bytes: bytes)
            Self.expectEnds(of: line, "\(bytes)")
            let text = Array(line.text.utf8)
            if !text.isEmpty, text[0] < 0x80 {
                line.movePrefix(byteCount: 1)
                Self.expectEnds(of: line, "\(bytes) less its first byte")
            }
        }
    }

    static func expectEnds(of line: LogLine, _ comment: String) {
        let text = Array(line.text.utf8)
        let lastNonBlank = text.last { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        #expect(line.firstByte == (text.first ?? 0), "\(comment)")
        #expect(line.lastNonBlankByte == (lastNonBlank ?? 0), "\(comment)")
    }
}
