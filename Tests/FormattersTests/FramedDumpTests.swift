import Formatters
import Foundation
import Testing

/// Every dump a real program wrote (Dumps/), as loggers hand it on: in the objects of JSON-lines loggers and behind
/// the prefix some loggers put on every line. `po` reads it through the same framing layer as `symbolicate` and
/// `group`, and reads the value the dump holds, as from the dump itself.
@Suite("Reading dumped values out of a logger's framing")
struct FramedDumpTests {
    /// One logger's way of carrying the line at `number`.
    struct Logger: CustomTestStringConvertible, Sendable {
        var name: String
        var carry: @Sendable (_ line: String, _ number: Int) -> String
        /// Whether the logger marks every line in a way a single line cannot show (a prefix: a logger's is found
        /// from what several lines share).
        var needsSeveralLines: Bool
        var testDescription: String { name }
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `text` as a JSON string, as JSONSerialization writes it.
    static func quoted(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    static let loggers: [Logger] = [
        Logger(
            name: "docker json-file",
            carry: { line, number in
                #"{"log":\#(quoted(line + "\n")),"stream":"stdout","time":"2026-11-25T10:00:\#(two(number % 60)).5Z"}"#
            }, needsSeveralLines: false),
        Logger(
            name: "journalctl -o json",
            carry: { line, number in
                #"{"__REALTIME_TIMESTAMP":"\#(1_764_064_800_000_000 + number)","PRIORITY":"6","MESSAGE":\#(quoted(line))}"#
            }, needsSeveralLines: false),
        Logger(
            name: "docker logs --timestamps",
            carry: { line, number in "2026-11-25T10:00:\(two(number % 60)).\(123_456_789 + number)Z \(line)" },
            needsSeveralLines: true),
        Logger(
            name: "kubectl logs --prefix", carry: { line, _ in "[pod/app-7d9f5c/app] \(line)" },
            needsSeveralLines: true)
    ]

    /// The text dumps (not binary property lists), with the values they hold read from the dump itself.
    static let dumps: [(name: String, text: String)] = {
        let directory = DumpParsingTests.directory
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.hasSuffix(".txt") || $0.hasSuffix(".plist")
        }
        return names.sorted().compactMap { name in
            guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            else { return nil }
            return (name, text)
        }
    }()

    /// The values `bytes` reads as, printed as `po --style json` prints them.
    static func values(_ bytes: [UInt8]) throws -> [String] {
        try DumpReader.readAll(bytes: bytes).map { PlainJSONRenderer().render($0.node) }
    }

    /// Whether the values have parts: a lone string or number is what any logged line reads as, so a framing
    /// that carries one cannot be told from a value of its own (JSON-lines objects are values too).
    static func hasParts(_ bytes: [UInt8]) throws -> Bool {
        try DumpReader.readAll(bytes: bytes).contains {
            ![.scalar, .string, .null, .raw, .truncated, .reference].contains($0.node.kind)
        }
    }

    @Test(arguments: loggers)
    func everyDumpReadsAsWithoutTheFraming(_ logger: Logger) throws {
        #expect(Self.dumps.count >= 150, "the dumps were not all found")
        var compared = 0
        for (name, text) in Self.dumps {
            let original = Array(text.utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(
                text.hasSuffix("\n") ? 1 : 0)
            guard try Self.hasParts(original),
                !logger.needsSeveralLines || lines.filter({ !$0.isEmpty }).count >= 2
            else { continue }
            let framed = lines.enumerated().map { logger.carry(String($0.element), $0.offset) + "\n" }.joined()
            // A JSON-lines logger's message that ends in `\r` ends in a terminal's line ending, which is the
            // logger's: a dumped string's CRLF split over two lines cannot be told from it.
            let unambiguous = logger.needsSeveralLines ? text : text.replacingOccurrences(of: "\r\n", with: "\n")
            let read = try Self.values(Array(framed.utf8)), expected = try Self.values(Array(unambiguous.utf8))
            #expect(read == expected, "\(name) in \(logger.name): \(read) for \(expected)")
            compared += 1
        }
        #expect(compared >= 100, "\(logger.name): \(compared) dumps compared")
    }

    @Test("An application's own JSON lines stay the values they are")
    func applicationJSONLinesAreValues() throws {
        // A `"message"` field is a logger's field name, but here it holds words, not a dump: the objects are the
        // values.
        let objects = (0..<5).map { #"{"message":"order \#($0) shipped","count":\#($0),"tags":["a","b"]}"# }
        let read = try DumpReader.readAll(bytes: Array((objects.joined(separator: "\n") + "\n").utf8))
        #expect(read.count == 5)
        #expect(read.allSatisfy { $0.format == .json && $0.node.kind == .dictionary })
        // Lines of JSON that all start alike (`{"a": `) have no prefix either.
        let alike = (0..<5).map { #"{"a": {"b": \#($0)}}"# }.joined(separator: "\n")
        let values = try DumpReader.readAll(bytes: Array(alike.utf8))
        #expect(values.count == 5 && values.allSatisfy { $0.node.kind == .dictionary })
    }
}
