import Foundation
import TestSupport
import Testing

/// `po` on values as they reach a log: the dumps a real program wrote (Tests/FormattersTests/Dumps, made by
/// Values.swift), their first line given a logger's prefix and the name the value was logged under, by the test.
@Suite("po: dumps as logged")
struct LoggedDumpTests {
    static let dumps = Fixtures.packageRoot.appendingPathComponent("Tests/FormattersTests/Dumps")

    /// The first line of a logged value, as each logger writes it.
    static let prefixes = [
        "2026-11-25T10:00:01+0000 info app.inventory : [request-id=7f3a] value = ", // swift-log's default handler
        "2026-11-25T10:00:01.123Z [ERROR] user = ", // a timestamp and a level
        "2026-11-25 10:00:01,123 warning value: ",
        "Nov 25 10:00:01 build-host app[4242]: user = ", // syslog, journald
        "2026-11-25 10:00:01.123 App[42:7] " // NSLog
    ]

    static let logged: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dumps.path)) ?? []
        return names.filter {
            $0.hasSuffix(".print.txt") || $0.hasSuffix(".debugPrint.txt") || $0.hasSuffix(".dump.txt")
        }.sorted()
    }()

    @Test(arguments: prefixes)
    func aLoggedValueReadsAsTheValue(_ prefix: String) throws {
        #expect(Self.logged.count >= 60)
        let scratch = try BadInputTests.Scratch()
        for name in Self.logged {
            let original = try String(contentsOf: Self.dumps.appendingPathComponent(name), encoding: .utf8)
            try original.write(toFile: scratch.path("clean.txt"), atomically: true, encoding: .utf8)
            try (prefix + original).write(toFile: scratch.path("logged.txt"), atomically: true, encoding: .utf8)
            let clean = try Command.postmortem(["po", "--style", "json", scratch.path("clean.txt")])
            let read = try Command.postmortem(["po", "--style", "json", scratch.path("logged.txt")])
            #expect(
                read.status == 0 && read.standardOutput == clean.standardOutput,
                "\(name) after \(prefix): \(read.standardOutput)")
        }
    }

    /// Several values in one input: two `dump()` outputs one after the other, and logged `print` values a line each,
    /// each read as it reads alone (`--style json`: one document a line).
    @Test func severalValuesInOneInput() throws {
        let scratch = try BadInputTests.Scratch()
        let dumps = Self.logged.filter { $0.hasSuffix(".dump.txt") }.prefix(6)
        let prints = Self.logged.filter { $0.hasSuffix(".print.txt") }.prefix(6)
        #expect(dumps.count == 6 && prints.count == 6)
        for (group, prefix) in [(Array(dumps), ""), (Array(prints), Self.prefixes[0])] {
            var expected: [String] = []
            var joined = ""
            for name in group {
                let text = try String(contentsOf: Self.dumps.appendingPathComponent(name), encoding: .utf8)
                try text.write(toFile: scratch.path("one.txt"), atomically: true, encoding: .utf8)
                expected += try Command.postmortem(["po", "--style", "json", scratch.path("one.txt")]).outputLines
                joined += prefix + text + (text.hasSuffix("\n") ? "" : "\n")
            }
            try joined.write(toFile: scratch.path("several.txt"), atomically: true, encoding: .utf8)
            let read = try Command.postmortem(["po", "--style", "json", scratch.path("several.txt")])
            #expect(read.status == 0 && read.outputLines == expected, "\(group)")
        }
    }

    /// `--max-items` in JSON says where it cut and how much: `{"$omitted": n}` ends the array, the items before it are
    /// the value's own (JSONEncoder's file of the same value is the oracle).
    @Test(arguments: ["dump.txt", "print.txt", "po.txt"])
    func maxItemsMarksTheCutInJSON(_ kind: String) throws {
        let expected =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.dumps.appendingPathComponent("large-array.json"))) as? [Int]
        let result = try Command.postmortem([
            "po", "--style", "json", "--max-items", "3", Self.dumps.appendingPathComponent("large-array.\(kind)").path
        ])
        let read = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [Any]
        let expectedItems = try #require(expected)
        let items = try #require(read, "\(result.standardOutput)")
        #expect(items.count == 4)
        #expect(items.prefix(3).compactMap { $0 as? Int } == Array(expectedItems.prefix(3)))
        #expect((items.last as? [String: Int]) == ["$omitted": expectedItems.count - 3])
    }

    /// Text that reads as no dump at all: one line on stderr and status 1, so a script can tell it from a value.
    @Test func nothingThatReadsAsADumpIsAnError() throws {
        for input in ["User(id: 4, name: \"x\"\n", "connection reset by peer\n"] {
            let result = try Command.postmortem(["po", "--style", "json"], input: input)
            #expect(result.status == 1, "\(input)")
            #expect(result.standardOutput.isEmpty)
            #expect(
                result.errorLines.count == 1
                    && result.errorLines.first?.hasPrefix("postmortem: -: nothing in it reads as a dump") == true)
        }
    }
}
