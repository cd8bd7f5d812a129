import Formatters
import Foundation
import Testing

/// Values of several kinds one after the other, with text between them, as a program's output holds them: a `dump()`
/// ends at the next line at the left margin, each value is read in its own format, and a line that is no value stays
/// as its text.
@Suite("Dumps with other lines around them")
struct MixedDumpTests {
    static func text(_ name: String) throws -> String {
        try String(contentsOf: DumpParsingTests.directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// The values `text` reads as, printed as `po --style json` prints them.
    static func values(_ text: String) throws -> [String] {
        try DumpReader.readAll(bytes: Array(text.utf8)).map { PlainJSONRenderer().render($0.node) }
    }

    @Test(arguments: [
        ["person.dump.txt", "values.Team\n", "person.print.txt", "inventory.dump.txt"],
        ["ring.dump.txt", "account.print.txt"],
        ["inventory.dump.txt", "a line of the program's own\n", "palette.dump.txt"]
    ])
    func eachValueReadsAsAlone(_ parts: [String]) throws {
        var text = ""
        var expected: [String] = []
        for part in parts {
            guard part.hasSuffix(".txt") else {
                text += part
                expected.append(PlainJSONRenderer().render(ValueNode(kind: .string, value: String(part.dropLast()))))
                continue
            }
            let alone = try Self.text(part)
            text += alone
            expected += try Self.values(alone)
        }
        let read = try DumpReader.readAll(bytes: Array(text.utf8))
        #expect(read.map { PlainJSONRenderer().render($0.node) } == expected, "\(parts)")
    }
}
