import Foundation
import TestSupport
import Testing

/// Files that hold several crashes, as people paste them: every ordered pair of sample logs of different formats (a
/// program's glibc trace, a sanitizer's report, gdb's `bt`, a Swift runtime's report in text and JSON and its older
/// trace, systemd-coredump's, an Apple report), written one after the other into one file. Each crash must read as
/// it does alone: the oracle is `postmortem` on the two logs given separately.
@Suite("Several crashes in one file")
struct SeveralReportsTests {
    static let samples = "SampleCrashes"
    static let logs = [
        "linux-groups/null-plain-aslr-on.txt", "linux-groups/limit-rdynamic-aslr-off.txt", "linux-groups/null-asan.txt",
        "linux-groups/null-gdb-bt.txt", "linux-groups/negative-fatal-aslr-on.txt",
        "linux-groups/range-backtrace-aslr-on.json",
        "linux-swift-backtrace/crash.txt", "linux-c-signal/coredump.txt", "apple-objc-arm64/App.crash"
    ].map { samples + "/" + $0 }
    static let debugFolders = ["linux-groups", "linux-swift-backtrace", "linux-c-signal", "apple-objc-arm64"]
        .flatMap { ["-d", samples + "/" + $0] }

    /// Each ordered pair of `logs`, written into one file of `folder`, by the pair it holds.
    static func writePairs(into folder: String) throws -> [String: (String, String)] {
        var pairs: [String: (String, String)] = [:]
        for (first, a) in logs.enumerated() {
            for (second, b) in logs.enumerated() where first != second {
                let path = "\(folder)/\(first)-then-\(second).txt"
                let joined =
                    try Data(contentsOf: Paths.packageRoot.appendingPathComponent(a))
                    + Data(contentsOf: Paths.packageRoot.appendingPathComponent(b))
                try joined.write(to: URL(fileURLWithPath: path))
                pairs[path] = (a, b)
            }
        }
        return pairs
    }

    /// The output of `symbolicate` over several logs, by log (its `==> LOG <==` sections).
    static func sections(_ result: CommandResult) -> [String: String] {
        var sections: [String: String] = [:]
        var current: String?
        for line in result.outputLines {
            if line.hasPrefix("==> "), line.hasSuffix(" <==") {
                current = String(line.dropFirst(4).dropLast(4))
                sections[current!] = ""
            } else if let current {
                sections[current]! += line + "\n"
            }
        }
        return sections
    }

    @Test("Every pair of crashes in one file, in each order, symbolicates as the two logs do alone")
    func eachCrashReadsAsItDoesAlone() throws {
        let folder = Fixtures.scratchDirectory("several-reports")
        let pairs = try Self.writePairs(into: folder)
        let alone = try Command.postmortem(["symbolicate"] + Self.debugFolders + Self.logs)
        #expect(alone.status == 0, "\(alone.standardError)")
        let together = try Command.postmortem(["symbolicate"] + Self.debugFolders + pairs.keys.sorted())
        #expect(together.status == 0, "\(together.standardError)")
        let single = Self.sections(alone), joined = Self.sections(together)
        #expect(single.count == Self.logs.count)
        #expect(joined.count == pairs.count)
        for (path, (a, b)) in pairs.sorted(by: { $0.key < $1.key }) {
            let expected = try #require(single[a]) + #require(single[b])
            #expect(joined[path] == expected, "\(a) then \(b)")
        }
    }

    @Test("group counts each crash of a file that holds two, under the signature it has alone")
    func groupCountsEachCrash() throws {
        let folder = Fixtures.scratchDirectory("several-reports-group")
        let pairs = try Self.writePairs(into: folder)
        func counts(_ paths: [String]) throws -> [String: Int] {
            let result = try Command.postmortem(["group", "--json"] + Self.debugFolders + paths)
            #expect(result.status == 0, "\(result.standardError)")
            var counts: [String: Int] = [:]
            for group in try GroupTests.groups(result) {
                counts[try #require(group["signature"] as? String), default: 0] += try #require(group["count"] as? Int)
            }
            return counts
        }
        let alone = try counts(Self.logs)
        let together = try counts(pairs.keys.sorted())
        // Each log is in 2 × (n − 1) pairs: once first and once second with each other log.
        let copies = 2 * (Self.logs.count - 1)
        #expect(together == alone.mapValues { $0 * copies })
    }
}
