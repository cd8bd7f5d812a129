import CrashLogs
import Foundation
import TestSupport
import Testing

@testable import LogFraming

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
        let read = try #require(
            JSONLogLines.open(line(#"{"log":"frame 0x1234 in f\n","stream":"stderr"}"#), key: "log")?.first)
        #expect(read.text == "frame 0x1234 in f")
        #expect(read.envelope?.tail == #"\n","stream":"stderr"}"#)
        #expect(whole(read) == #"{"log":"frame 0x1234 in f\n","stream":"stderr"}"# + "\n")
        var rewritten: [UInt8] = []
        read.appendRewritten(["frame 0x1234 in f at \"a.c\":3\t<x>"], to: &rewritten)
        #expect(
            String(decoding: rewritten, as: UTF8.self)
                == #"{"log":"frame 0x1234 in f at \"a.c\":3\t<x>\n","stream":"stderr"}"# + "\n")
    }

    @Test func crlfAndEscapedBackslashes() throws {
        let crlf = try #require(JSONLogLines.open(line(#"{"log":"frame\r\n"}"#), key: "log")?.first)
        #expect(crlf.text == "frame" && crlf.envelope?.tail == #"\r\n"}"#)
        // `\\n` is a backslash and an `n`, no line ending: it stays in the message.
        let backslash = try #require(JSONLogLines.open(line(#"{"log":"C:\\n"}"#), key: "log")?.first)
        #expect(backslash.text == #"C:\n"# && backslash.envelope?.tail == #""}"#)
        let unicode = try #require(
            JSONLogLines.open(line(#"{"msg":"\u003cunknown\u003e \ud83d\ude00"}"#), key: "msg")?.first)
        #expect(unicode.text == "<unknown> 😀")
        #expect(whole(unicode) == #"{"msg":"\u003cunknown\u003e \ud83d\ude00"}"# + "\n")
    }

    @Test func whatIsNotOpened() {
        // Line breaks not written as `\n`, no such field, not an object, not JSON.
        #expect(JSONLogLines.open(line(#"{"log":"a\u000ab"}"#), key: "log") == nil)
        #expect(JSONLogLines.open(line(#"{"message":"a"}"#), key: "log") == nil)
        #expect(JSONLogLines.open(line(#"{"log":3}"#), key: "log") == nil)
        #expect(JSONLogLines.open(line(#"{"log":"a"#), key: "log") == nil)
        #expect(JSONLogLines.open(line("frame 0x1234"), key: "log") == nil)
    }

    @Test("A message of several lines is a line for each, each part put back in its place")
    func aMessageOfSeveralLines() throws {
        let object = #"{"t":1,"message":"Backtrace:\n./app(+0x11ef)[0x55]\r\n\u003cend\u003e","n":2}"#
        let parts = try #require(JSONLogLines.open(line(object), key: "message"))
        #expect(parts.map(\.text) == ["Backtrace:", "./app(+0x11ef)[0x55]", "<end>"])
        #expect(
            parts.map { $0.envelope?.isFirstPart } == [true, false, false]
                && parts.map { $0.envelope?.isLastPart } == [false, false, true])
        var bytes: [UInt8] = []
        for part in parts { part.appendWhole(to: &bytes) }
        #expect(String(decoding: bytes, as: UTF8.self) == object + "\n")
        // A frame's part rewritten to two lines (an inlined frame) keeps both inside the object.
        bytes = []
        parts[0].appendWhole(to: &bytes)
        parts[1].appendRewritten(["./app(f+0x1) at a.c:3 (inlined)", "./app(g+0x9) at a.c:9"], to: &bytes)
        parts[2].appendWhole(to: &bytes)
        let rewritten = String(decoding: bytes, as: UTF8.self)
        #expect(
            rewritten
                == #"{"t":1,"message":"Backtrace:\n./app(f+0x1) at a.c:3 (inlined)\n./app(g+0x9) at a.c:9\n\u003cend\u003e","n":2}"#
                + "\n")
    }

    @Test func aLogIsJSONLinesWhenMostOfItsLinesAreObjectsWithOneMessageField() throws {
        let objects = (0..<10).map { line(#"{"time":"\#($0)","MESSAGE":"line \#($0)"}"#) }
        let opened = try #require(JSONLogLines.opened(objects + [line("a line of its own")]))
        #expect(opened.map(\.text) == (0..<10).map { "line \($0)" } + ["a line of its own"])
        #expect(JSONLogLines.opened(objects.prefix(5) + (0..<5).map { line("plain \($0)") }) == nil)
        // Objects with no field of a logger's name are a JSON document's lines, not a logger's.
        #expect(JSONLogLines.opened((0..<10).map { line(#"{"frame":"\#($0)"}"#) }) == nil)
    }

    @Test func aLineLongerThanALoggerWritesIsADocumentNotAnObjectOfTheLog() throws {
        // A JSON document of its own on one line (given to `po`, say) is never parsed to look for a logger's field.
        let long = String(repeating: "x", count: JSONLogLines.maximumObjectLength)
        #expect(JSONLogLines.messageKey(in: [line(#"{"log":"\#(long)"}"#)]) == nil)
        #expect(JSONLogLines.messageKey(in: [line(#"{"log":"short"}"#)]) == "log")
    }

    /// The message fields docs/USING.md names, read from its text: each one's objects read as the log inside them.
    static let documentedKeys: [String] = {
        let text =
            (try? String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/USING.md"), encoding: .utf8))
            ?? ""
        guard let start = text.range(of: "A log stored as JSON lines"),
            let end = text[start.upperBound...].range(of: "is read from each object")
        else { return [] }
        return text[start.upperBound..<end.lowerBound].matches(of: /`"([^"`]+)"`/).map { String($0.1) }
    }()

    @Test func everyDocumentedKeyIsKnown() {
        #expect(Self.documentedKeys.count >= 8, "\(Self.documentedKeys)")
        #expect(Set(Self.documentedKeys) == Set(JSONLogLines.messageKeys))
    }

    /// A glibc trace, each line an object with its message in the field `key`: the same frames as the trace itself.
    @Test(arguments: documentedKeys)
    func aLogInEveryDocumentedField(_ key: String) throws {
        let path = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-c-signal/segv-lib.txt").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let clean = try CrashLogParser.parse(Array(text.utf8), source: path)
        let wrapped =
            text.split(separator: "\n").enumerated().map { number, line in
                #"{"time":"2026-11-25T10:00:\#(number)","level":"error","\#(key)":"\#(line)"}"#
            }.joined(separator: "\n") + "\n"
        let read = try CrashLogParser.parse(Array(wrapped.utf8), source: "wrapped")
        #expect(read.format == clean.format, "\(key)")
        #expect(
            read.threads.map { $0.frames.map(\.address) } == clean.threads.map { $0.frames.map(\.address) }, "\(key)")
        #expect(read.threads.flatMap(\.frames).count >= 5)
    }
}
