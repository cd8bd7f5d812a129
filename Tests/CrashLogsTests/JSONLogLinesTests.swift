@testable import CrashLogs
import Testing

/// Lines of a JSON-lines log opened to the messages they carry, and put back as they were.
@Suite("JSON lines")
struct JSONLogLinesTests {
    private func line(_ text: String) -> LogLine { LogLine(bytes: Array((text + "\n").utf8)) }

    private func whole(_ line: LogLine) -> String {
        var bytes: [UInt8] = []
        line.appendWhole(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theLineEndingTheLoggerKeptGoesWithTheObject() throws {
        let read = try #require(JSONLogLines.open(line(#"{"log":"frame 0x1234 in f\n","stream":"stderr"}"#), key: "log"))
        #expect(read.text == "frame 0x1234 in f")
        #expect(read.envelope?.tail == #"\n","stream":"stderr"}"#)
        #expect(whole(read) == #"{"log":"frame 0x1234 in f\n","stream":"stderr"}"# + "\n")
        var rewritten: [UInt8] = []
        read.appendRewritten("frame 0x1234 in f at \"a.c\":3\t<x>", ending: [10], to: &rewritten)
        #expect(String(decoding: rewritten, as: UTF8.self) == #"{"log":"frame 0x1234 in f at \"a.c\":3\t<x>\n","stream":"stderr"}"# + "\n")
    }

    @Test func crlfAndEscapedBackslashes() throws {
        let crlf = try #require(JSONLogLines.open(line(#"{"log":"frame\r\n"}"#), key: "log"))
        #expect(crlf.text == "frame" && crlf.envelope?.tail == #"\r\n"}"#)
        // `\\n` is a backslash and an `n`, no line ending: it stays in the message.
        let backslash = try #require(JSONLogLines.open(line(#"{"log":"C:\\n"}"#), key: "log"))
        #expect(backslash.text == #"C:\n"# && backslash.envelope?.tail == #""}"#)
        let unicode = try #require(JSONLogLines.open(line(#"{"msg":"\u003cunknown\u003e \ud83d\ude00"}"#), key: "msg"))
        #expect(unicode.text == "<unknown> 😀")
        #expect(whole(unicode) == #"{"msg":"\u003cunknown\u003e \ud83d\ude00"}"# + "\n")
    }

    @Test func whatIsNotOpened() {
        // Several lines of output in one message, no such field, not an object, not JSON.
        #expect(JSONLogLines.open(line(#"{"log":"a\nb\n"}"#), key: "log") == nil)
        #expect(JSONLogLines.open(line(#"{"message":"a"}"#), key: "log") == nil)
        #expect(JSONLogLines.open(line(#"{"log":3}"#), key: "log") == nil)
        #expect(JSONLogLines.open(line(#"{"log":"a"#), key: "log") == nil)
        #expect(JSONLogLines.open(line("frame 0x1234"), key: "log") == nil)
    }

    @Test func aLogIsJSONLinesWhenMostOfItsLinesAreObjectsWithOneMessageField() throws {
        let objects = (0..<10).map { line(#"{"time":"\#($0)","MESSAGE":"line \#($0)"}"#) }
        let opened = try #require(JSONLogLines.opened(objects + [line("a line of its own")]))
        #expect(opened.map(\.text) == (0..<10).map { "line \($0)" } + ["a line of its own"])
        #expect(JSONLogLines.opened(objects.prefix(5) + (0..<5).map { line("plain \($0)") }) == nil)
        // Objects with no field of a logger's name are a JSON document's lines, not a logger's.
        #expect(JSONLogLines.opened((0..<10).map { line(#"{"frame":"\#($0)"}"#) }) == nil)
    }
}
