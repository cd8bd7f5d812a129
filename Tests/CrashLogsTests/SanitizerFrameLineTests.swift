import Foundation
import PostmortemCore
import TestSupport
import Testing

@testable import CrashLogs

/// The sanitizers' frame lines (`#3 0x4f2a1c in main /src/app.c:12:3`, `#0 0x7f… (/lib/libc.so.6+0x29d90) (BuildId:
/// …)`, ThreadSanitizer's `#1 func file:line (module+0xoff)`), read by the reader over its bytes and by the test over
/// the string: on every line of every committed log, and on lines made to sit at the edges.
@Suite("Sanitizers' frame lines")
struct SanitizerFrameLineTests {
    static let head = try! NSRegularExpression(pattern: #"^[ \t]*#([0-9]{1,9})(?:\.[0-9]*)?[ \t]+(.*)$"#)

    static func expected(_ line: String) -> SanitizerParser.FrameLine? {
        let range = NSRange(line.startIndex..., in: line)
        guard let match = head.firstMatch(in: line, range: range) else { return nil }
        let number = Int(line[Range(match.range(at: 1), in: line)!])!
        let rest = String(line[Range(match.range(at: 2), in: line)!])
        guard rest.hasPrefix("0x") || rest.hasPrefix("0X") else { return threadSanitizer(number, rest) }
        let digits = rest.dropFirst(2).prefix { $0.isHexDigit }
        guard (1...16).contains(digits.count) else { return nil }
        var tail = rest.dropFirst(2 + digits.count)
        guard tail.isEmpty || tail.first == " " || tail.first == "\t" else { return nil }
        tail = tail.drop { $0 == " " || $0 == "\t" }
        while let last = tail.last, last == " " || last == "\t" || last == "\r" { tail.removeLast() }
        var frame = SanitizerParser.FrameLine(
            index: number, pc: UInt64(digits, radix: 16)!, function: nil, module: nil, offset: nil, buildID: nil)
        if tail.hasSuffix(")"), let build = tail.range(of: "(BuildId: ", options: .backwards) {
            frame.buildID = String(tail[build.upperBound..<tail.index(before: tail.endIndex)])
            tail = tail[..<build.lowerBound]
            while let last = tail.last, last == " " || last == "\t" { tail.removeLast() }
        }
        if tail.hasSuffix(")"), let open = tail.dropLast().lastIndex(of: "("),
            let plus = tail[open..<tail.index(before: tail.endIndex)].dropFirst().lastIndex(of: "+"),
            let offset = HexNumber.parse(tail[tail.index(after: plus)..<tail.index(before: tail.endIndex)])
        {
            var module = tail[tail.index(after: open)..<plus]
            if let colon = module.lastIndex(of: ":"), !module[colon...].contains("/") { module = module[..<colon] }
            frame.module = String(module)
            frame.offset = offset
            tail = tail[..<open]
            while let last = tail.last, last == " " || last == "\t" { tail.removeLast() }
        }
        if tail.count > 3, tail.hasPrefix("in ") {
            var function = tail.dropFirst(3).drop { $0 == " " || $0 == "\t" }
            if frame.module == nil, let space = function.lastIndex(of: " "), function[space...].contains(":") {
                frame.location = SourceInLog(parsing: String(function[function.index(after: space)...]))
                function = function[..<space]
            }
            if !function.isEmpty { frame.function = String(function) }
        }
        return frame
    }

    /// `func place (module+0xoff)`: two words, then the module and offset in parentheses ending the line.
    static func threadSanitizer(_ number: Int, _ rest: String) -> SanitizerParser.FrameLine? {
        var text = Substring(rest)
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        guard text.hasSuffix(")"), let open = text.dropLast().lastIndex(of: "("),
            let plus = text[open..<text.index(before: text.endIndex)].lastIndex(of: "+"),
            text.distance(from: open, to: plus) > 1,
            let offset = HexNumber.parse(text[text.index(after: plus)..<text.index(before: text.endIndex)])
        else { return nil }
        let words = text[..<open].split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 2 else { return nil }
        return .init(
            index: number, pc: nil, function: words[0] == "<null>" ? nil : String(words[0]),
            module: String(text[text.index(after: open)..<plus]), offset: offset, buildID: nil)
    }

    @Test func everyLineOfTheCommittedLogsReadsAsTheTestReadsIt() {
        var frames = 0
        for (path, line) in CorpusFile.committedLines(endingIn: [".txt", ".log"]) {
            let expected = Self.expected(line)
            #expect(SanitizerParser.frame(in: line) == expected, "\(path): \(line)")
            frames += expected == nil ? 0 : 1
        }
        #expect(frames > 500, "too few frame lines in the committed logs: \(frames)")
    }

    @Test(arguments: [
        "    #0 0x4f2a1c in main /src/app.c:12:3",
        "#1 0x7f0000029d90 (/lib/x86_64-linux-gnu/libc.so.6+0x29d90) (BuildId: 0123abcd)",
        "#2 0x10 in operator new(unsigned long) (/usr/lib/libasan.so+0x10)",
        "#3 0x10 in foo (/usr/lib/libfoo.dylib:x86_64+0x20)",
        "#4 0x10 in foo (/usr/lib/a:b/libfoo+0x20)",
        "#5 0x10 in foo bar.c",
        "#6 0x10 in foo bar.c:7",
        "#7 0x10 in ",
        "#8 0x10",
        "#9 0x10000000000000000 in f",
        "#10 0xZZ in f",
        "#1.2 0x10 in inlined x.c:1",
        "  #1 f x.c:3 (libx.so+0xa0)",
        "  #2 <null> <null> (libx.so+0xa0)",
        "  #3 f (libx.so+0xa0)",
        "  #4 f x.c:3 (libx.so+0x)",
        "#00  0000007fe0ef2070  0000007fe0ef2080",
        "#x 0x10",
        "#1\t0x10\tin\tf",
        "#1 0x10 in f (m+0x1)\r",
        ""
    ])
    func readsAsTheTestReadsIt(line: String) {
        #expect(SanitizerParser.frame(in: line) == Self.expected(line))
    }
}
