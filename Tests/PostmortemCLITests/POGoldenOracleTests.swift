import Foundation
import TestSupport
import Testing

/// The values the `po` goldens print, held to Foundation's own encoding of them: each dump in
/// `Tests/FormattersTests/Dumps` was written by `Values.swift` beside a `.json` twin of the same value from
/// `JSONEncoder`. `po --style json` of the golden's input must be that value (members that are `nil` are left out by
/// the encoder, so `null` members are dropped before comparing). What a golden adds is the layout of `tree` and `line`,
/// postmortem's own, which no other tool prints.
@Suite("Golden CLI output: po, held to the dumps' JSON twins")
struct POGoldenOracleTests {
    static let dumps = "Tests/FormattersTests/Dumps/"
    /// The inputs of the `po` goldens that have a twin, with the twin's name.
    static let inputs: [(golden: String, input: String, twin: String)] = [
        ("po-dump-tree", "person.dump.txt", "person"), ("po-print-line", "separators.debugPrint.txt", "separators"),
        ("po-json-limits", "inventory.print.txt", "inventory"),
        ("po-nsdictionary", "person.nsdescription.txt", "person"),
        ("po-lldb-po", "drawing.po.txt", "drawing"), ("po-cfdictionary", "inventory.cfdescription.txt", "inventory"),
        ("po-plist-xml", "limits.plist", "limits"), ("po-plist-binary", "wrapper.bplist", "wrapper")
    ]

    static func withoutNulls(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            return object.filter { !($0.value is NSNull) }.mapValues(withoutNulls)
        }
        if let array = value as? [Any] { return array.map(withoutNulls) }
        return value
    }

    @Test(arguments: inputs.map { [$0.golden, $0.input, $0.twin] })
    func theValueAGoldenPrintsIsFoundationsValue(_ names: [String]) throws {
        let transcript = try String(contentsOf: Paths.golden.appendingPathComponent(names[0] + ".txt"), encoding: .utf8)
        #expect(transcript.contains(Self.dumps + names[1]), "the golden \(names[0]) prints \(names[1])")
        let printed = try Command.postmortem(["po", "--style", "json", Self.dumps + names[1]])
        #expect(printed.status == 0, "\(printed.standardError)")
        let ours = Self.withoutNulls(try JSONSerialization.jsonObject(with: Data(printed.standardOutput.utf8)))
        let twin = try Data(contentsOf: Paths.packageRoot.appendingPathComponent(Self.dumps + names[2] + ".json"))
        let theirs = Self.withoutNulls(try JSONSerialization.jsonObject(with: twin))
        #expect(
            NSDictionary(dictionary: ["value": ours]).isEqual(NSDictionary(dictionary: ["value": theirs])),
            "\(names[1]): \(printed.standardOutput)")
    }

    /// The two goldens read from standard input have no twin written by a program: their values are stated here by
    /// hand, as JSON, from the input's own text (lldb's `frame variable` lines; a Swift value printed by `po`), and
    /// `po --style json` of the golden's input must be them. The golden adds the tree layout and `--max-depth`'s cut.
    /// (`po-formatters-lldbinit` stays pinned by itself: what its summaries say is the lldbinit's rules applied by
    /// postmortem's own registry, and lldb here reads no Swift values to compare.)
    @Test(arguments: [
        ["po-lldb-frame-variable", #"{"name": "Anton", "self": {"acquaintances": ["Anton"]}}"#],
        ["po-stdin", #"{"counts": {}, "empty": [], "nested": [[1]], "flags": [true]}"#]
    ])
    func aValueReadFromStandardInputIsTheOneItStates(_ pair: [String]) throws {
        let transcript = try String(contentsOf: Paths.golden.appendingPathComponent(pair[0] + ".txt"), encoding: .utf8)
        let input = try #require(
            transcript.components(separatedBy: "[stdin]\n").last?.components(separatedBy: "[stdout]\n").first)
        let printed = try Command.postmortem(["po", "--style", "json", "-"], input: input)
        #expect(printed.status == 0, "\(printed.standardError)")
        let ours = try JSONSerialization.jsonObject(with: Data(printed.standardOutput.utf8))
        let stated = try JSONSerialization.jsonObject(with: Data(pair[1].utf8))
        #expect(
            NSDictionary(dictionary: ["value": ours]).isEqual(NSDictionary(dictionary: ["value": stated])),
            "\(pair[0]): \(printed.standardOutput)")
    }
}
