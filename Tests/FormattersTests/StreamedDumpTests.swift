import Formatters
import Foundation
import Testing

/// A dump read an element at a time (``StreamedDump``, what `po` does with one large collection) prints byte for byte
/// what reading it whole prints, in every style, with and without limits: every committed dump, and texts made here
/// around the edges. Texts that would not read so are not streamed.
@Suite("Dumps read an element at a time")
struct StreamedDumpTests {
    static let limits: [RenderLimits] = [
        .unlimited, RenderLimits(maxDepth: .max, maxItems: 0), RenderLimits(maxDepth: .max, maxItems: 1),
        RenderLimits(maxDepth: .max, maxItems: 2), RenderLimits(maxDepth: 0, maxItems: .max),
        RenderLimits(maxDepth: 1, maxItems: .max), RenderLimits(maxDepth: 2, maxItems: 3)
    ]

    /// What `po` prints reading `bytes` whole: each value with the formatters applied, cut to `limits`, on its lines.
    static func whole(_ bytes: [UInt8], format: DumpFormat?, style: DescriptionStyle, limits: RenderLimits) throws
        -> String
    {
        try DumpReader.readAll(bytes: bytes, format: format).map { reading in
            let node = ValueLimiter(limits: limits).limit(FormatterRegistry.standard.apply(to: reading.node))
            return style.render(node) + "\n"
        }.joined()
    }

    /// What `po` prints reading `bytes` an element at a time; nil when they are not read so.
    static func streamed(_ bytes: [UInt8], format: DumpFormat?, style: DescriptionStyle, limits: RenderLimits)
        -> String?
    {
        guard var stream = DumpReader.streamed(bytes: bytes, format: format) else { return nil }
        var output: [UInt8] = []
        var writer = StreamedCollectionWriter(style: style, container: stream.container, limits: limits) {
            output += $0
        }
        var applier = FormatterRegistry.Applier(registry: .standard)
        writer.writeAll(of: &stream, preparing: { applier.apply(to: $0) })
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `text` is streamed (as `format`, or detected), and then prints as read whole in every style and limit.
    @discardableResult
    static func agrees(_ text: String, format: DumpFormat? = nil, _ comment: String) throws -> Bool {
        let bytes = Array(text.utf8)
        var wasStreamed = false
        for style in DescriptionStyle.allCases {
            for limits in Self.limits {
                guard let streamed = streamed(bytes, format: format, style: style, limits: limits) else { continue }
                wasStreamed = true
                let whole = try whole(bytes, format: format, style: style, limits: limits)
                #expect(streamed == whole, "\(comment), \(style), \(limits)")
            }
        }
        return wasStreamed
    }

    static var committedDumps: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: DumpParsingTests.directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".dump.txt") || $0.hasSuffix(".print.txt") }.sorted()
    }

    @Test func everyCommittedDumpPrintsAsReadWhole() throws {
        var streamedNames: [String] = []
        for name in Self.committedDumps {
            let text = try MixedDumpTests.text(name)
            for format: DumpFormat? in [nil, .json, .dump] where try Self.agrees(text, format: format, name) {
                streamedNames.append(name)
            }
            // Pretty-printed JSON (several lines), as other encoders write it.
            if name.hasSuffix(".json"), let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
                let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted])
            {
                try Self.agrees(String(decoding: pretty, as: UTF8.self), "\(name), pretty-printed")
            }
        }
        // The collections among them are streamed: the comparison above is not empty.
        for name in ["array-of-people.json", "array-of-people.dump.txt", "large-array.dump.txt", "dictionary.json"] {
            #expect(streamedNames.contains(name), "\(name) is not streamed")
        }
    }

    @Test(arguments: [
        #"[]"#, #"{}"#, #"  [1, 2.5, -3e4, true, false, null, "x"]  "#, "[\n  {\"a\": [], \"b\": {}},\n  [[[]]]\n]\n",
        #"{"k": "a \"quoted\" \\ tab\t and \u00e9 \ud83d\ude00", "": 0, "k": 1}"#,
        #"[{"nested": {"deeper": {"deepest": [1, {"x": null}]}}}, "after"]"#,
        #"[0.1, 1E+2, -0, 123456789012345678901234567890]"#
    ])
    func jsonAroundTheEdgesPrintsAsReadWhole(_ text: String) throws {
        #expect(try Self.agrees(text, text), "not streamed: \(text)")
    }

    /// Text that begins as a collection but is not one, or not alone: read whole, as before.
    @Test(arguments: [
        #"[1, 2, foo]"#, #"[1, 2"#, #"[1] [2]"#, "[1]\n[2]\n", "[1]\nsome words after it\n", #"{"a": 1,}"#,
        "(lldb) po x\n[1, 2]\n", "[\"a line feed\n] in a string\"]", "2026-11-25 10:00:00.123 App[42:7] [1, 2]\n",
        "\u{FEFF}[1]",
        "▿ 2 elements\n  - 1\n  - 2\nwords at the margin\n", "▿ 2 elements\r\n  - 1\r\n  - 2\r\n",
        "▿ 1 element\n  ▿ Fixture.Node #0\n    - next: nil\n", "▿ Fixture.Person\n  - name: \"A\"\n",
        "▿ 2 elements\n - 1\n  - 2\n", "▿ 1 element\n  ▿ 0 : Person\n    - name : \"A\"\n"
    ])
    func textThatIsNotOneCollectionIsReadWhole(_ text: String) throws {
        #expect(DumpReader.streamed(bytes: Array(text.utf8)) == nil, "streamed: \(text)")
    }

    /// `dump()` of generated values, streamed, printed as JSONEncoder writes them (the oracle: the same values encoded).
    @Test func dumpOfManyValuesPrintsAsJSONEncoderWritesThem() throws {
        let users = (0..<400).map { index in
            StreamedUser(
                id: index, name: "user \(index) \"q\"", active: index % 3 == 0, score: Double(index % 1000) / 8,
                tags: ["a", "b\(index % 7)"],
                address: StreamedAddress(city: "City \(index % 100)", zip: index % 5 == 0 ? nil : index))
        }
        var text = ""
        dump(users, to: &text)
        let bytes = Array(text.utf8)
        let printed = try #require(Self.streamed(bytes, format: nil, style: .json, limits: .unlimited))
        let ours = try JSONSerialization.jsonObject(with: Data(printed.utf8))
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(users))
        // Compared as a whole, reported by its first element (a failure would print megabytes).
        let same = DumpParsingTests.same(ours, encoded)
        #expect(same, "first element: \(printed.prefix(300))")
        try Self.agrees(text, "dump of users")
    }
}

/// The values `dump()` writes in ``StreamedDumpTests/dumpOfManyValuesPrintsAsJSONEncoderWritesThem()`` (at the top
/// level and not private: `dump()` names a type declared inside a function or private with its context, as no
/// program's would read).
struct StreamedUser: Codable {
    var id: Int, name: String, active: Bool, score: Double, tags: [String], address: StreamedAddress
}

struct StreamedAddress: Codable {
    var city: String
    var zip: Int?
}
