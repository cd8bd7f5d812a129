import Foundation
import PostmortemCore
import TestSupport
import Testing

@testable import CrashLogs

/// glibc's `backtrace_symbols` lines (`./app(main+0x1d) [0x4005d6]`, `/lib/libc.so.6(+0x29d90) [0x7f…]`,
/// `prog[0x4aee95]`, `[0x7f…]`), read by the reader over its bytes and by the test's own reading over the string: on
/// every line of every committed log, and on lines made to sit at the edges (demangled names holding parentheses and
/// signs, blanks, a negative offset, an offset past 64 bits).
@Suite("glibc's frame lines")
struct GlibcFrameLineTests {
    /// `[0x…]` closing the line (blanks after it aside); before its `[`, `module(symbol+0x…)`, `module`, or nothing.
    static let address = try! NSRegularExpression(pattern: #"\[(0[xX][0-9a-fA-F]{1,16})\][ \t]*$"#)

    static func expected(_ line: String) -> GlibcBacktraceParser.FrameLine? {
        let range = NSRange(line.startIndex..., in: line)
        guard let match = address.firstMatch(in: line, range: range) else { return nil }
        let whole = Range(match.range, in: line)!
        let value = UInt64(line[Range(match.range(at: 1), in: line)!].dropFirst(2), radix: 16)!
        var prefix = Substring(line[..<whole.lowerBound])
        while prefix.last == " " { prefix.removeLast() }
        while prefix.first == " " || prefix.first == "\t" { prefix.removeFirst() }
        if prefix.isEmpty { return .init(module: nil, symbol: nil, offset: nil, address: value) }
        guard prefix.hasSuffix(")") else {
            return prefix.contains(" ") ? nil : .init(module: String(prefix), symbol: nil, offset: nil, address: value)
        }
        guard let open = prefix.firstIndex(of: "(") else { return nil }
        let module = String(prefix[..<open])
        let inner = prefix[prefix.index(after: open)..<prefix.index(before: prefix.endIndex)]
        if inner.isEmpty { return .init(module: module, symbol: nil, offset: nil, address: value) }
        guard let sign = inner.lastIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        let digits = inner[inner.index(after: sign)...]
        guard digits.hasPrefix("0x") || digits.hasPrefix("0X"), (3...18).contains(digits.count),
            let offset = UInt64(digits.dropFirst(2), radix: 16)
        else { return nil }
        if inner[sign] == "-" { return nil }
        let symbol = inner[..<sign]
        return .init(
            module: module.isEmpty ? nil : module, symbol: symbol.isEmpty ? nil : String(symbol), offset: offset,
            address: value)
    }

    @Test func everyLineOfTheCommittedLogsReadsAsTheTestReadsIt() {
        var frames = 0
        for (path, line) in CorpusFile.committedLines(endingIn: [".txt", ".crash", ".log"]) {
            let expected = Self.expected(line)
            #expect(GlibcBacktraceParser.frame(in: line) == expected, "\(path): \(line)")
            frames += expected == nil ? 0 : 1
        }
        #expect(frames > 150, "too few frame lines in the committed logs: \(frames)")
    }

    @Test(arguments: [
        "./app(main+0x1d) [0x4005d6]",
        "/lib/x86_64-linux-gnu/libc.so.6(+0x29d90) [0x7f0000029d90]",
        "prog[0x4aee95]",
        "  [0x7f0000001000]  ",
        "libv8.so(V8_Fatal(char const*, int, char const*, ...)+0x200) [0xf05e2790]",
        "lib.so(operator-(a, b)+0x10) [0x10]",
        "lib.so(f-0x10) [0x10]",
        "lib.so() [0x10]",
        "(+0x10) [0x20]",
        "lib.so(f+0x10000000000000000) [0x10]",
        "lib.so(f+10) [0x10]",
        "my prog[0x10]",
        "\tlib.so(f+0x1)   [0x2]\t",
        "lib.so(f+0x1) [0x]",
        "lib.so(f+0x1) [0x1] trailing",
        "lib.so f+0x1) [0x1]",
        "[0x10000000000000000]",
        "]",
        ""
    ])
    func readsAsTheTestReadsIt(line: String) {
        #expect(GlibcBacktraceParser.frame(in: line) == Self.expected(line))
    }
}
