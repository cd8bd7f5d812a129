import CrashLogs
import Foundation
import TestSupport
import Testing

/// The kind of crash each log of the shared corpus states, as its own words give it, read by a pattern per format
/// that knows nothing of the parsers: Apple's `Exception Type:` line (an `.ips` file's `exception` object), a
/// tombstone's `signal N (SIGX)`, a stackwalk's `Crash reason:` (its `Crash|` row), gdb's and lldb's stop line, the
/// Swift backtracer's `Program crashed:`, an uncaught exception's name. The parsed report states the same, or nothing
/// when the log states nothing. (Sanitizer reports have their own test, `SanitizerKindTests`.)
@Suite("Shared corpus: what kind of crash")
struct CorpusExceptionTests {
    /// Patterns by corpus folder; the first group of the first pattern that matches is the kind.
    static let patterns: [String: [String]] = [
        "apple-crash": [#"^Exception Type:\s+(.+?)\s*$"#],
        "apple-ips": [
            #""exception"\s*:\s*\{[^}]*"type"\s*:\s*"(\w+)"[^}]*"signal"\s*:\s*"(\w+)""#,
            #"^Exception Type:\s+(.+?)\s*$"#,
            #""bug_type"\s*:\s*"(?:151|210)""#
        ],
        "android-tombstone": [#"(signal \d+ \(SIG\w+\))"#],
        "breakpad-stackwalk": [#"^Crash reason:[ \t]+(\S.*?)[ \t]*$"#, #"^Crash\|([^|]+)\|"#],
        "debugger-bt": [#"^Program (?:received|terminated with) signal (SIG\w+)"#, #"stop reason = (.+?)\s*$"#],
        "swift-backtrace": [#"Program crashed: (.+?) at 0x"#, #"Program crashed: (.+?)\s*$"#],
        "nsexception": [
            #"Fatal Exception: (\w+)"#, #"uncaught exception '(\w+)'"#, #"exception '(\w+)'"#,
            #"received signal (SIG\w+)"#
        ]
    ]

    /// The kinds the first pattern that matches reads off `text` for a log of `folder`, one per match (a paste of two
    /// crashes states two); `panic` for a kernel panic, which a pattern tells without a name to read.
    static func statedKinds(_ text: String, folder: String) throws -> [String] {
        for pattern in patterns[folder] ?? [] {
            let regex = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
            let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
            guard !matches.isEmpty else { continue }
            return matches.map { match in
                let groups = (1..<match.numberOfRanges).compactMap {
                    Range(match.range(at: $0), in: text).map { String(text[$0]) }
                }
                if folder == "apple-ips", groups.count == 2 { return "\(groups[0]) (\(groups[1]))" }
                return groups.first ?? "panic"
            }
        }
        return []
    }

    static let logs = SharedCorpusTests.logs.filter { patterns[String($0.prefix { $0 != "/" })] != nil }

    @Test(.enabled(if: SharedCorpusTests.isPresent, SharedCorpusTests.absence)) func theCorpusIsThere() {
        #expect(Self.logs.count >= 60, "\(Self.logs.count) logs: is ../shared/corpus beside the checkout?")
    }

    @Test(arguments: logs)
    func kindIsTheOneTheLogStates(_ log: String) throws {
        let folder = String(log.prefix { $0 != "/" })
        let data = try #require(
            FileManager.default.contents(atPath: SharedCorpusTests.corpus.appendingPathComponent(log).path))
        let text = String(decoding: data, as: UTF8.self)
        let report = try CrashLogParser.parse(Array(data), source: log)
        let stated = try Self.statedKinds(text, folder: folder)
        if stated.isEmpty {
            #expect(report.exception?.type == nil, "\(log)")
        } else {
            // One of them when the log holds several crashes (two runs pasted together; `symbolicate` splits them).
            #expect(
                report.exception?.type.map(stated.contains) == true,
                "\(log): \(report.exception?.type ?? "nothing") of \(stated)")
        }
    }

    /// The sample crashes of the repository, made by its scripts, read the same way (each with the corpus folder whose
    /// pattern fits its format).
    static let samples: [(log: String, folder: String)] = [
        ("apple-objc-arm64/App.crash", "apple-crash"), ("apple-objc-arm64/App.ips", "apple-ips"),
        ("linux-c-sensors/gdb-bt.txt", "debugger-bt"), ("linux-c-signal/gdb-bt.txt", "debugger-bt"),
        ("linux-groups/null-gdb-bt.txt", "debugger-bt"), ("linux-swift-backtrace/crash.txt", "swift-backtrace"),
        ("linux-swift-backtrace/crash-runtime.txt", "swift-backtrace"),
        ("linux-swift-backtrace/pipeline.txt", "swift-backtrace"),
        ("linux-swift-backtrace/pipeline-runtime.txt", "swift-backtrace")
    ]

    @Test(arguments: samples.map { [$0.log, $0.folder] })
    func sampleKindIsTheOneTheLogStates(_ pair: [String]) throws {
        let path = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/" + pair[0]).path
        let data = try #require(FileManager.default.contents(atPath: path), "\(pair[0]) is missing")
        let report = try CrashLogParser.parse(Array(data), source: pair[0])
        let stated = try Self.statedKinds(String(decoding: data, as: UTF8.self), folder: pair[1])
        // One crash each, or none stated (a gdb session stopped at a breakpoint in the signal handler says no signal).
        #expect(stated.count <= 1, "\(pair[0]) states one crash: \(stated)")
        #expect(report.exception?.type == stated.first, "\(pair[0])")
    }
}
