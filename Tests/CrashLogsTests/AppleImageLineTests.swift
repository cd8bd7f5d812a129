import Foundation
import PostmortemCore
import TestSupport
import Testing

@testable import CrashLogs

/// Every `Binary Images:` line of every committed Apple report, read by the reader and by a pattern of the test's own:
/// load and end address, UUID, path, architecture (the word after the name, or inside the version's parentheses) and
/// name (its words one space apart; a bundle identifier where the path names the binary gives way to the file's name).
@Suite("Apple reports' image lines")
struct AppleImageLineTests {
    static let architectures: Set<String> = [
        "arm64", "arm64e", "x86_64", "x86_64h", "i386", "armv7", "armv7s", "armv7k", "arm64_32"
    ]

    @Test func everyImageLineReadsAsThePatternReadsIt() throws {
        let pattern = try NSRegularExpression(
            pattern: #"^\s*0x([0-9a-fA-F]+)\s*-\s*0x([0-9a-fA-F]+)\s+\+?(.*?)\s*<([0-9a-fA-F-]+)>\s*(.*?)\s*$"#)
        let logs =
            CorpusParsingTests.files("apple-crash")
            + ((try? FileManager.default.subpathsOfDirectory(atPath: "SampleCrashes")) ?? []).filter {
                $0.hasSuffix(".crash")
            }.map { "SampleCrashes/" + $0 }
        var checked = 0
        for path in logs {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                guard let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else {
                    continue
                }
                let group = { (index: Int) in String(line[Range(match.range(at: index), in: line)!]) }
                var description = group(3)
                var architecture: String?
                if let open = description.firstIndex(of: "(") {
                    let inside = description[description.index(after: open)...].prefix { $0 != ")" }
                    if Self.architectures.contains(String(inside)) { architecture = String(inside) }
                    description = String(description[..<open])
                }
                var words = description.split(separator: " ").map(String.init)
                if let last = words.last, Self.architectures.contains(last) {
                    architecture = last
                    words.removeLast()
                }
                var name = words.joined(separator: " ")
                let path = group(5)
                let file = path.split(separator: "/").last.map(String.init) ?? ""
                let parts = name.split(separator: ".", omittingEmptySubsequences: false)
                if !file.isEmpty, name != file, parts.count >= 3, !name.contains(" "),
                    parts.allSatisfy({ !$0.isEmpty }), parts[0].allSatisfy(\.isLetter),
                    parts[0].lowercased() == parts[0]
                {
                    name = file
                }
                let image = try #require(AppleCrashParser.image(in: line), "\(path): \(line)")
                let place = "\(path): \(line)"
                #expect(image.loadAddress == UInt64(group(1), radix: 16), "\(place)")
                #expect(image.endAddress == UInt64(group(2), radix: 16), "\(place)")
                #expect(image.name == name, "\(place)")
                #expect(image.architecture == architecture, "\(place)")
                #expect(image.path == (path.isEmpty ? nil : path), "\(place)")
                #expect(image.identifier == group(4), "\(place)")
                #expect(image.identity?.bytes == MachUUID(string: group(4))?.bytes, "\(place)")
                checked += 1
            }
        }
        #expect(checked > 1_000, "image lines read: \(checked)")
    }

    @Test(arguments: [
        ("4C4C445B-5555-3144-A18D-535DDD3BDF97", true), ("4c4c445b55553144a18d535ddd3bdf97", true),
        ("4C4C445B-5555-3144-A18D-535DDD3BDF9", false), ("4C4C445B-5555-3144-A18D-535DDD3BDF977", false),
        ("4C4C445B-5555-3144-A18D-535DDD3BDF9G", false), ("", false)
    ])
    func uuidsReadWithOrWithoutDashes(_ text: String, _ valid: Bool) {
        let uuid = MachUUID(string: text)
        #expect((uuid != nil) == valid)
        if let uuid {
            let digits = text.uppercased().replacingOccurrences(of: "-", with: "")
            #expect(uuid.description.replacingOccurrences(of: "-", with: "") == digits)
            let pairs = stride(from: 0, to: digits.count, by: 2).map { offset in
                UInt8(String(digits.dropFirst(offset).prefix(2)), radix: 16)
            }
            #expect(uuid.bytes.map { Optional($0) } == pairs, "the bytes in the order the digits write them")
        }
    }

    /// A bundle identifier (which an image line's name gives way to its file's name for) as the test reads one:
    /// three or more dot-separated parts, none empty, no blank, the first of lower-case letters.
    @Test(arguments: 0..<4)
    func bundleIdentifiersAreReverseDNSNames(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let parts = ["com", "apple", "CoreFoundation", "", "Com", "ünï", "Ünï", "a b", "x86_64", "1", "org", "é"]
        for _ in 0..<2_000 {
            let name = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                parts[Int.random(in: 0..<parts.count, using: &random)]
            }.joined(separator: ".")
            let split = name.split(separator: ".", omittingEmptySubsequences: false)
            let expected =
                split.count >= 3 && !name.contains(" ") && split.allSatisfy { !$0.isEmpty }
                && split[0].allSatisfy(\.isLetter) && split[0].lowercased() == split[0]
            #expect(AppleCrashParser.isBundleIdentifier(name) == expected, "\(name)")
        }
    }
}
