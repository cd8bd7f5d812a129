import Formatters
import Foundation
import Testing

/// Dumps written by a real Swift program (Dumps/Values.swift, run by Dumps/generate.sh): each value's
/// `print`, `debugPrint`, `dump()`, lldb `po`, NSDictionary and CFDictionary descriptions, XML and binary plists,
/// read back and printed as JSON, equals what JSONEncoder wrote for the same value: a nil field left out, a date as
/// its seconds since 2001, a case's unlabelled values as `_0`, an instance in several places written in each.
@Suite("Reading dumped values")
struct DumpParsingTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Dumps")
    static let values = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()

    /// Deep equality of JSONSerialization results (numbers by value: 36 and 36.0 are the same number).
    static func same(_ lhs: Any, _ rhs: Any, emptyContainersAlike: Bool = false, tolerance: Double = 0) -> Bool {
        switch (lhs, rhs) {
        case (let left as [String: Any], let right as [Any]) where emptyContainersAlike:
            return left.isEmpty && right.isEmpty
        case (let left as [Any], let right as [String: Any]) where emptyContainersAlike:
            return left.isEmpty && right.isEmpty
        case (let left as [String: Any], let right as [String: Any]):
            return left.count == right.count
                && left.allSatisfy { key, value in
                    right[key].map { same(value, $0, emptyContainersAlike: emptyContainersAlike, tolerance: tolerance) }
                        ?? false
                }
        case (let left as [Any], let right as [Any]):
            return left.count == right.count
                && zip(left, right).allSatisfy {
                    same($0, $1, emptyContainersAlike: emptyContainersAlike, tolerance: tolerance)
                }
        case (let left as String, let right as String): return left == right
        case (is NSNull, is NSNull): return true
        case (let left as Bool, let right as Bool): return left == right
        case (let left as NSNumber, let right as NSNumber):
            return left == right || left.doubleValue == right.doubleValue && "\(left)" == "\(right)"
                || abs(left.doubleValue - right.doubleValue) <= tolerance
        default: return false
        }
    }

    /// Each kind of file Dumps/generate.sh writes, and the format it must be detected as.
    static let expectedFormat: [String: DumpFormat] = [
        "print.txt": .swiftPrint, "debugPrint.txt": .swiftPrint, "dump.txt": .dump, "po.txt": .po,
        "nsdescription.txt": .openStep, "cfdescription.txt": .cfDescription, "plist": .plist, "bplist": .plist
    ]

    /// What a kind of dump cannot show, so it is not compared: `print` and `debugPrint` of a class show its type
    /// name only, and so does `po` of a class that is not `CustomReflectable` (`<Team: 0x…>`); `po` writes an enum case
    /// with one unlabelled value as a structure with one field (`▿ 0 : Signal`, `- point : 1`).
    static let showsNoFields: Set<String> = [
        "account.print.txt", "account.debugPrint.txt", "account.po.txt",
        "team.print.txt", "team.debugPrint.txt", "team.po.txt",
        "ring.print.txt", "ring.debugPrint.txt", "ring.po.txt",
        "team-shared.print.txt", "team-shared.debugPrint.txt", "team-shared.po.txt", "event.po.txt"
    ]

    static let files: [(String, String)] = values.flatMap { name in
        expectedFormat.keys.sorted().filter { kind in
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(name).\(kind)").path)
                && !showsNoFields.contains("\(name).\(kind)")
        }.map { (name, $0) }
    }

    @Test func everyValueIsWrittenInEveryKind() {
        #expect(Self.values.count >= 25)
        // Values whose top level is not a container have no property-list or Foundation forms.
        #expect(Self.files.count >= Self.values.count * 4 + 20 * 4)
    }

    @Test(arguments: files)
    func dumpReadsBackToTheEncodedValue(_ name: String, _ kind: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent("\(name).\(kind)")))
        let reading = try DumpReader.read(bytes: bytes)
        let (node, format) = (reading.node, reading.format)
        // Text that is also valid JSON (`[1, 2]`, `{\n}`) is read as JSON, and a one-line `po` (`nil`,
        // `Fixture.Empty()`) as `print` output: the same value either way.
        let text = String(decoding: bytes, as: UTF8.self)
        let alsoValid: DumpFormat? =
            (try? JSONValueParser.parse(text)) != nil
            ? .json
            : kind == "po.txt" && !text.dropLast().contains("\n") ? .swiftPrint : nil
        #expect(format == Self.expectedFormat[kind] || format == alsoValid)
        // As `postmortem po --style json` renders it: the built-in formatters first.
        let ours = PlainJSONRenderer().render(FormatterRegistry.standard.apply(to: node))
        let expected = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.directory.appendingPathComponent("\(name).json")),
            options: [.fragmentsAllowed])
        let actual = try JSONSerialization.jsonObject(with: Data(ours.utf8), options: [.fragmentsAllowed])
        // `po` prints an empty dictionary as `0 elements`, the same as an empty array; CoreFoundation prints reals
        // with 20 decimals (5e-324 is +0.00000000000000000000).
        #expect(
            Self.same(
                actual, expected, emptyContainersAlike: kind == "po.txt",
                tolerance: kind == "cfdescription.txt" ? 1e-20 : 0), "\(name).\(kind): \(ours)")
    }

    @Test func jsonReadsBackAsItself() throws {
        for name in Self.values {
            let text = try String(contentsOf: Self.directory.appendingPathComponent("\(name).json"), encoding: .utf8)
            let reading = try DumpReader.read(text)
            let (node, format) = (reading.node, reading.format)
            #expect(format == .json)
            let again = try JSONSerialization.jsonObject(
                with: Data(PlainJSONRenderer().render(node).utf8), options: [.fragmentsAllowed])
            let original = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            #expect(Self.same(again, original), "\(name)")
        }
    }

    @Test func logPrefixesAreStripped() throws {
        let text = "2024-05-01 10:00:00.123 App[42:7] [\"a\", \"b\"]\n"
        #expect(LineRenderer().render(try DumpReader.read(text).node) == #"["a", "b"]"#)
        let lldb = "(lldb) po items\n▿ 2 elements\n  - \"a\"\n  - \"b\"\n"
        #expect(LineRenderer().render(try DumpReader.read(lldb).node) == #"["a", "b"]"#)
    }

    @Test func whatCannotBeParsedIsKeptAsRawText() throws {
        #expect(
            LineRenderer().render(try DumpReader.read("Person(name: \"Ada\", age: 3").node)
                == "Person(name: \"Ada\", age: 3")
        let node = try DumpReader.read("[1, <Widget: 0x600>, 3]").node
        #expect(LineRenderer().render(node) == "[1, <Widget: 0x600>, 3]")
        #expect(node.children.map(\.kind) == [.scalar, .raw, .scalar])
    }

    @Test func deepNestingAndBrokenJSONDoNotCrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: DumpReader.Failure.self) { try DumpReader.read(deep, format: .json) }
        let printed = (try? DumpReader.read(deep, format: .swiftPrint).node.kind) ?? .raw
        #expect(printed == .collection || printed == .raw)
        #expect(throws: DumpReader.Failure.self) { try DumpReader.read("{\"a\": [1, 2", format: .json) }
    }
}
