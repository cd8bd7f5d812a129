import Formatters
import Foundation
import Testing

/// Formatter files: lldb `type summary add` lines and JSON, applied to real dumps by type name.
@Suite("Formatter files")
struct FormatterFileTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
    }

    /// The person dump with `registry` applied, and its address (the dump reader unwraps the optional).
    static func person(_ registry: FormatterRegistry) throws -> (person: ValueNode, address: ValueNode?) {
        let node = try DumpReader.read(try text("Dumps/person.dump.txt"), format: .dump).node
        let applied = registry.apply(to: node)
        return (applied, applied.child("address"))
    }

    @Test func lldbCommandsAddSummariesAndSayWhatTheySkip() throws {
        var registry = FormatterRegistry.standard
        let failures = FormatterFile.load(try Self.text("FormatterFiles/people.lldbinit"), into: &registry)
        #expect(
            failures.map(\.description) == [
                "line 5: option -P is not supported (summary strings only)",
                "line 6: type synthetic add is not supported (summaries only)"
            ])
        let (person, address) = try Self.person(registry)
        #expect(person.summary == "Ada Lovelace (36), 2 tags")
        #expect(address?.summary == "12 St. James's Square, London", "the regex entry, in its own category")
        registry.disable("places")
        #expect(try Self.person(registry).address?.summary == nil)
    }

    /// The same file with Windows line endings reads the same (its lines used to run together into one).
    @Test func lldbCommandsWithCRLFLineEndings() throws {
        var registry = FormatterRegistry.standard
        let text = try Self.text("FormatterFiles/people.lldbinit").replacingOccurrences(of: "\n", with: "\r\n")
        let failures = FormatterFile.load(text, into: &registry)
        #expect(
            failures.map(\.description) == [
                "line 5: option -P is not supported (summary strings only)",
                "line 6: type synthetic add is not supported (summaries only)"
            ])
        #expect(try Self.person(registry).person.summary == "Ada Lovelace (36), 2 tags")
    }

    @Test func jsonDefinitionsAddSummaries() throws {
        var registry = FormatterRegistry.standard
        let failures = FormatterFile.load(try Self.text("FormatterFiles/people.json"), into: &registry)
        #expect(failures.map(\.description) == [#"formatter 3: summary string "${var.name": a `${` is not closed"#])
        let (person, address) = try Self.person(registry)
        #expect(person.summary == "Ada Lovelace, 36")
        #expect(address?.summary == "in London")
    }

    @Test func fileEntriesComeBeforeTheBuiltIns() {
        var registry = FormatterRegistry.standard
        _ = FormatterFile.load(#"type summary add -s "from ${var.lowerBound}" -x "^Swift.Range<""#, into: &registry)
        let range = ValueNode(
            kind: .structure, typeName: "Swift.Range<Swift.Int>",
            children: [
                ValueNode(kind: .scalar, label: "lowerBound", value: "1"),
                ValueNode(kind: .scalar, label: "upperBound", value: "5")
            ])
        #expect(registry.apply(to: range).summary == "from 1")
        #expect(FormatterRegistry.standard.apply(to: range).summary == "1..<5")
    }

    @Test func badLinesAreReportedOneByOne() {
        var registry = FormatterRegistry()
        let text = """
            type summary add Person
            type summary add -s "${var.x}"
            type summary add -s "${var.x}" -x "([" Broken
            type summary add -s "unclosed
            type summary add -s "ok ${var.x}" Good
            """
        let failures = FormatterFile.load(text, into: &registry)
        #expect(failures.map(\.line) == [1, 2, 3, 4])
        #expect(
            failures.map(\.reason) == [
                "no --summary-string (Python summaries are not supported)", "no type named",
                "'([' is not a regular expression", "a quote is not closed"
            ])
        #expect(registry.entry(typeName: "App.Good") != nil)
    }
}
