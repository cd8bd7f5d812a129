import Foundation
import PostmortemCore
import TestSupport
import Testing

@testable import CrashLogs

/// Apple's frame lines (`12  UIKitCore  0x183442f24 -[UIView _setBackgroundColor:] + 564`, `42  Demo  0x100f4c4b4
/// 0x100e88000 + 804020`), read by the reader and by a pattern of the test's own: on every line of every committed
/// Apple report, and on lines made to sit at the edges (tabs, a `+ ` before the name, a number too long, an offset
/// past 64 bits).
@Suite("Apple reports' frame lines")
struct AppleFrameLineTests {
    /// What the pattern reads of a line, as the reader's ``AppleCrashParser/FrameLine`` holds it.
    struct Expected: Equatable {
        var index: Int, image: String, address: UInt64, headLength: Int
        var base: UInt64?, offset: UInt64?, symbol: String?
    }

    /// The number, the words up to the first whole `0x…` word after them (the image, less a leading `+ `), that
    /// word, and after it `head + N` (head a `0x…` base, else a symbol).
    static let pattern = try! NSRegularExpression(
        pattern: #"^ *([0-9]{1,18})[ \t]+([^ \t].*?)[ \t]+(0[xX][0-9a-fA-F]{1,16})(?=[ \t]|$)(.*)$"#)

    static func expected(_ line: String) -> Expected? {
        let range = NSRange(line.startIndex..., in: line)
        guard let match = pattern.firstMatch(in: line, range: range) else { return nil }
        let group = { (index: Int) in String(line[Range(match.range(at: index), in: line)!]) }
        var image = group(2)
        if image.hasPrefix("+ ") { image.removeFirst(2) }
        let addressEnd = Range(match.range(at: 3), in: line)!.upperBound
        var result = Expected(
            index: Int(group(1))!, image: image, address: UInt64(group(3).dropFirst(2), radix: 16)!,
            headLength: line.utf8.distance(from: line.startIndex, to: addressEnd))
        let tail = group(4).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        if let plus = tail.range(of: " + ") {
            let head = String(tail[..<plus.lowerBound])
            result.offset = UInt64(tail[plus.upperBound...].prefix { $0.isASCII && $0.isNumber })
            if head.hasPrefix("0x") || head.hasPrefix("0X"), head.count <= 18,
                let base = UInt64(head.dropFirst(2), radix: 16)
            {
                result.base = base
            } else if !head.isEmpty {
                result.symbol = head
            }
        }
        return result
    }

    static func read(_ line: String) -> Expected? {
        AppleCrashParser.frame(in: line).map { frame in
            guard case .darwin(let headLength) = frame.style(in: line) else { fatalError("not a Darwin frame style") }
            return Expected(
                index: frame.index, image: frame.image, address: frame.address, headLength: headLength,
                base: frame.base, offset: frame.offset, symbol: frame.symbol)
        }
    }

    @Test func everyFrameLineOfTheCommittedReportsReadsAsThePatternReadsIt() throws {
        let logs =
            CorpusParsingTests.files("apple-crash") + CorpusParsingTests.files("apple-ips")
            + ((try? FileManager.default.subpathsOfDirectory(atPath: "SampleCrashes")) ?? []).filter {
                $0.hasSuffix(".crash") || $0.hasSuffix(".ips")
            }.map { "SampleCrashes/" + $0 }
        var frames = 0
        for path in logs {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                let expected = Self.expected(line)
                #expect(Self.read(line) == expected, "\(path): \(line)")
                frames += expected == nil ? 0 : 1
            }
        }
        #expect(frames > 1_000, "too few frame lines in the committed reports")
    }

    @Test(arguments: [
        "12  UIKitCore    \t   0x183442f24 -[UIView(Hierarchy) _setBackgroundColor:] + 564",
        "42  Demo  0x100f4c4b4 0x100e88000 + 804020",
        "3   com.apple.Some Framework   0x1 main + 5",
        "0   + Foo   0x10 bar + 1",
        "7\tlib\t0x10",
        "1 lib 0x10 sym + 99999999999999999999999",
        "1 lib 0x10 sym + 12 (Foo.swift:3)",
        "1 lib 0x10 a + b + 7",
        "  9 lib 0xFFFFFFFFFFFFFFFF 0x0 + 0",
        "1 lib 0x10000000000000000 0x20",
        "1234567890123456789 lib 0x1",
        "5 lib notanaddress",
        "Thread 0:",
        "12",
        "12 "
    ])
    func readsAsThePatternReadsIt(line: String) {
        #expect(Self.read(line) == Self.expected(line))
    }
}
