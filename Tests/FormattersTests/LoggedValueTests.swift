import Formatters
import Foundation
import Testing

/// Values logged the ways programs log them (LoggedValues/Logging.swift, run by LoggedValues/generate.sh against
/// swift-log): after swift-log's prefix with and without metadata and a label, after NSLog's, after a message's
/// words (`profile loaded: Profile(…)`, `Loaded profiles: [...]`), after `name = `, an NSDictionary over several
/// lines. `po --style json` reads each value out of its line and writes what JSONEncoder wrote for it; lines of words
/// stay text.
@Suite("Reading values out of log lines")
struct LoggedValueTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("LoggedValues")
    static let logs = ["swift-log", "nslog", "print"]

    @Test(arguments: logs)
    func everyLoggedValueReadsAsJSONEncoderWroteIt(_ name: String) throws {
        let log = try Data(contentsOf: Self.directory.appendingPathComponent("\(name).log"))
        let expected = try String(
            contentsOf: Self.directory.appendingPathComponent("\(name).json"), encoding: .utf8
        ).split(separator: "\n")
        let readings = try DumpReader.readAll(bytes: [UInt8](log))
        let values = readings.filter { $0.node.kind != .raw }
        try #require(values.count == expected.count, "\(name): \(readings.map(\.node))")
        for (reading, json) in zip(values, expected) {
            let ours = PlainJSONRenderer().render(FormatterRegistry.standard.apply(to: reading.node))
            let actual = try JSONSerialization.jsonObject(with: Data(ours.utf8), options: [.fragmentsAllowed])
            let wanted = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
            #expect(DumpParsingTests.same(actual, wanted), "\(name): \(ours) is not \(json)")
        }
        // The other lines are the log's lines of words, kept as text, behind their prefix.
        let lines = String(decoding: log, as: UTF8.self).split(separator: "\n")
        for text in readings.filter({ $0.node.kind == .raw }).compactMap({
            $0.node.value?.trimmingCharacters(in: .newlines)
        }) {
            #expect(lines.contains { $0.hasSuffix(text) } && !text.contains("("), "\(name): \(text)")
        }
        #expect(readings.count > values.count)
    }

    @Test func wordsWithABracketOrAValueThatDoesNotReadStayText() throws {
        let lines = [
            "retrying (3 of 5) Profile(name: \"Ada\")",
            "request failed (timeout)",
            "took [12 ms] in total",
            "loaded Profile(name: \"Ada\", age:"
        ]
        for line in lines {
            let readings = try DumpReader.readAll(bytes: Array((line + "\n" + "count = [1, 2]\n").utf8))
            #expect(readings.first?.node.kind == .raw, "\(line)")
            #expect(readings.first?.node.value == line)
            #expect(readings.last.map { LineRenderer().render($0.node) } == "[1, 2]")
        }
    }

    @Test func aDumpedDateIsItsSecondsAsJSONEncoderWritesThem() throws {
        let dump = """
            ▿ Fixture.Stamp
              ▿ when: 2025-11-25 10:00:01 +0000
                - timeIntervalSinceReferenceDate: 785757601.25
            """
        let node = try DumpReader.read(dump).node
        #expect(PlainJSONRenderer().render(node) == #"{"when": 785757601.25}"#)
        #expect(LineRenderer().render(node) == "Stamp(when: 2025-11-25 10:00:01 +0000)")
        // `print` has whole seconds only; a date before 2001 is negative.
        #expect(
            PlainJSONRenderer().render(try DumpReader.read("Stamp(when: 1999-12-31 23:59:59 +0000)").node)
                == #"{"when": -31622401}"#)
    }
}

extension LoggedValueTests {
    /// Crash logs are no text of values: a stray bracketed line among their lines of words (a pid, an address) does
    /// not make them one, and `po` still says that nothing in them reads as a dump.
    @Test(arguments: ["apple-objc-arm64/App.crash", "linux-c-asan/asan.txt", "linux-c-sensors/gdb-bt.txt"])
    func crashLogsAreNoValues(_ log: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleCrashes/\(log)")
        let readings = try DumpReader.readAll(bytes: [UInt8](try Data(contentsOf: url)))
        #expect(readings.allSatisfy { $0.node.kind == .raw }, "\(log): \(readings.map(\.node.kind))")
    }
}
