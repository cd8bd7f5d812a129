import CrashLogs
import LogFraming
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
}
