import Foundation
import PostmortemCore
import TestSupport
import Testing

@testable import CrashLogs

/// minidump-stackwalk's human frame lines (` 0  module!function [file : line + 0xc]`, ` 3  module + 0x1234`,
/// ` 4  0x7ffe…`), read by the reader and by string searches of the test's own: on every line of every committed
/// report, and on lines made to sit at the edges.
@Suite("minidump-stackwalk's frame lines")
struct BreakpadFrameLineTests {
    /// What a frame line says, as the reader's ``BreakpadStackwalkParser/FrameLine`` holds it.
    struct Expected: Equatable {
        var index: Int
        var module: String?, function: String?, offset: UInt64?, address: UInt64?
        var hasLocation: Bool
    }

    /// `0x` and 1 to 16 hex digits, the whole of `text`.
    static func hex(_ text: Substring) -> UInt64? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X"), (3...18).contains(text.count) else { return nil }
        return UInt64(text.dropFirst(2), radix: 16)
    }

    static func expected(_ line: String) -> Expected? {
        let pattern = try! NSRegularExpression(pattern: #"^[ \t]*([0-9]{1,18})  (.*)$"#)
        guard let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { return nil }
        let index = Int(line[Range(match.range(at: 1), in: line)!])!
        let rest = Substring(
            line[Range(match.range(at: 2), in: line)!].trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
        if rest.hasPrefix("0"), let address = hex(rest.prefix { $0 != " " }) {
            return Expected(index: index, address: address, hasLocation: false)
        }
        if !rest.contains("!"), let plus = rest.range(of: " + 0x") {
            guard let offset = hex(rest[rest.index(plus.upperBound, offsetBy: -2)...]) else { return nil }
            return Expected(index: index, module: String(rest[..<plus.lowerBound]), offset: offset, hasLocation: false)
        }
        guard let bang = rest.firstIndex(of: "!"), !rest[..<bang].contains(" ") else { return nil }
        var function = rest[rest.index(after: bang)...]
        let hasLocation = function.hasSuffix("]") && function.contains(" [")
        if hasLocation, let open = function.range(of: " [", options: .backwards) {
            function = function[..<open.lowerBound]
        }
        var offset: UInt64?
        if let plus = function.range(of: " + 0x", options: .backwards),
            let value = hex(function[function.index(plus.upperBound, offsetBy: -2)...])
        {
            offset = value
            function = function[..<plus.lowerBound]
        }
        return Expected(
            index: index, module: String(rest[..<bang]), function: String(function), offset: offset,
            hasLocation: hasLocation)
    }

    static func read(_ line: String) -> Expected? {
        BreakpadStackwalkParser.frame(in: line).map {
            Expected(
                index: $0.index, module: $0.module, function: $0.function, offset: $0.offset, address: $0.address,
                hasLocation: $0.hasLocation)
        }
    }

    @Test func everyLineOfTheCommittedReportsReadsAsTheSearchesReadIt() throws {
        var frames = 0
        for path in CorpusParsingTests.files("breakpad-stackwalk") where !path.contains("machine-readable") {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                let expected = Self.expected(line)
                #expect(Self.read(line) == expected, "\(path): \(line)")
                frames += expected == nil ? 0 : 1
            }
        }
        #expect(frames > 200, "too few frame lines in the committed reports")
    }

    @Test(arguments: [
        " 0  crash-client!core::ptr::write_volatile::<u8> [mod.rs : 1574]",
        " 1  crash-client!sadness_generator::raise_segfault [lib.rs : 133 + 0x0]",
        " 4  crash-client!crash_client::main [main.rs : 142 + 0x562]",
        "12  libc.so + 0x1234",
        " 3  libc.so + 0xzz",
        " 5  0x7ffe00001234",
        " 5  0x7ffe00001234 (unloaded many.dll@0x460)",
        " 6  0xnothex!f",
        " 7  my module!f",
        " 8  m!f + 0x10",
        " 8  m!f + 0x10 + 0x20",
        " 8  m!f [a.c : 3 + 0x1] + 0x20",
        "\t9  m!g [broken",
        "10 m!f",
        "1234567890123456789  m!f",
        "    rip = 0x0000000102a68cd4",
        "    Found by: inlining"
    ])
    func readsAsTheSearchesReadIt(line: String) {
        #expect(Self.read(line) == Self.expected(line))
    }
}
