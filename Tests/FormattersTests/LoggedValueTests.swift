import Formatters
import Foundation
import TestSupport
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

    struct Stamp: Codable { var when: Date }

    /// Dates `print` and `dump()` write, read back as the seconds `JSONEncoder` writes for them: dates spread over three
    /// centuries from a fixed seed (leap days, before 1970 and 2001 among them); `print` shows whole seconds, `dump()`
    /// the exact number.
    @Test func aDumpedDateIsItsSecondsAsJSONEncoderWritesThem() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        let fixed: [Double] = [0, -1, -31_622_401, 4_107_542_400 - 978_307_200, -3_187_296_000]
        let spread = (0..<200).map { _ in Double(generator.next() % 6_311_347_200) - 3_155_673_600 }
        for seconds in fixed + spread {
            let whole = Stamp(when: Date(timeIntervalSinceReferenceDate: seconds.rounded(.down)))
            let exact = Stamp(when: Date(timeIntervalSinceReferenceDate: seconds + 0.25))
            for (stamp, text) in [(whole, String(describing: whole)), (exact, Self.dumped(exact))] {
                let ours = PlainJSONRenderer().render(try DumpReader.read(text).node)
                let expected = try JSONSerialization.jsonObject(with: JSONEncoder().encode(stamp)) as? [String: Double]
                let actual = try JSONSerialization.jsonObject(with: Data(ours.utf8)) as? [String: Double]
                #expect(actual == expected, "\(text): \(ours)")
            }
        }
    }

    static func dumped<T>(_ value: T) -> String {
        var text = ""
        dump(value, to: &text)
        return text
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
