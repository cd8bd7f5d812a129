import CrashLogs
import LogFraming
import TestSupport
import Testing

/// Lines are ranges of the bytes they were split from and make their text from them: every byte must come back as
/// read, and every question readers ask of the bytes must answer as the text would.
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

    /// What readers ask of a line without making its text (its bytes, their count, whether they hold a byte or a word,
    /// start with one) answers as the text does: for lines split from one log, moved off a prefix, opened from a
    /// JSON object, and lines that are not UTF-8.
    @Test(arguments: 0..<4)
    func questionsOfTheBytesAnswerAsTheText(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pieces: [String] = [" ", "\t", "#0", "pid: ", "Thread 0:", "\u{2713}", "ab", "a", "\r", "{", "==", ":"]
        let words = ["#", "pid: ", "ab", "a", "\u{2713}", "Thread", "==", "{", " ", "b\u{2713}", "zz"]
        var log: [UInt8] = []
        for _ in 0..<400 {
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                log += Array(pieces[Int.random(in: 0..<pieces.count, using: &random)].utf8)
            }
            if Int.random(in: 0..<10, using: &random) == 0 { log.append(0xFF) }
            log.append(UInt8(ascii: "\n"))
        }
        var lines = LogLine.split(log)
        for index in lines.indices where Bool.random(using: &random) {
            lines[index].movePrefix(byteCount: Int.random(in: 1...3, using: &random))
        }
        let object = Array(#"{"message":"pid: 7 #0 ab\nThread 0:"}"#.utf8) + [UInt8(ascii: "\n")]
        lines += JSONLogLines.opened([LogLine(bytes: object)], key: "message")
        #expect(lines.contains { $0.envelope != nil }, "the JSON object is opened")
        for line in lines {
            let text = Array(line.text.utf8)
            let comment = Comment(rawValue: "\(line.bytes)")
            #expect(line.withTextBytes { bytes in bytes.indices.map { bytes[$0] } } == text, comment)
            #expect(line.textByteCount == text.count, comment)
            #expect(line.isTextEmpty == text.isEmpty, comment)
            #expect(line.byteCount == line.bytes.count, comment)
            for byte in [UInt8(ascii: "#"), UInt8(ascii: ":"), 0xEF, 0x80] {
                #expect(line.textContains(byte) == text.contains(byte), comment)
            }
            for word in words {
                let needle = Array(word.utf8)
                let occurs =
                    text.count >= needle.count
                    && (0...text.count - needle.count).contains {
                        Array(text[$0..<$0 + needle.count]) == needle
                    }
                #expect(line.textContains(word) == occurs, comment)
                #expect(line.textStarts(with: word) == text.starts(with: needle), comment)
            }
        }
    }

    /// Lines are equal, and hash alike, by what they hold, wherever their bytes lie: the same line split from two logs
    /// at two offsets is one line; a byte or an ending more is another.
    @Test func linesAreEqualByWhatTheyHold() {
        let first = LogLine.split(Array("head\n#0 frame\nlast".utf8))
        let second = LogLine.split(Array("other head, longer\n#0 frame\nlast\n".utf8))
        #expect(first[1] == second[1])
        #expect(first[1].hashValue == second[1].hashValue)
        #expect(first[1] == LogLine(bytes: Array("#0 frame\n".utf8)))
        #expect(first[0] != second[0])
        #expect(first[2] != second[2], "one ends in a line feed, the other does not")
        #expect(first[2].text == second[2].text)
        #expect(Set(first + second).count == 5, "the frame line once, the others each")
        var prefixed = LogLine.split(Array("app: #0 frame\n".utf8))[0]
        prefixed.movePrefix(byteCount: 5)
        #expect(prefixed.text == first[1].text)
        #expect(prefixed != first[1], "a line with a logger's prefix is not the line without")
        var check = LogLine(bytes: Array("\u{2713} ok\n".utf8))
        check.movePrefix(byteCount: 1)
        #expect(check == LogLine(bytes: Array("\u{2713} ok\n".utf8)), "no prefix ends inside a character")
        check.movePrefix(byteCount: 3)
        #expect(check.prefix == "\u{2713}" && check.text == " ok")
    }
}
