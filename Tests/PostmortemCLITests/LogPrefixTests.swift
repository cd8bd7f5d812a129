import Foundation
import TestSupport
import Testing

/// Every sample crash log as loggers hand it on: each line given the prefix a logger writes (the transformations
/// below, applied by the test), read as the log itself and printed back with its prefixes in place.
@Suite("Symbolicate: logs with a prefix on every line")
struct LogPrefixTests {
    /// One logger's prefix for the line at `number`, and a pattern that matches it.
    struct Logger: CustomTestStringConvertible, Sendable {
        var name: String
        var prefix: @Sendable (Int) -> String
        var pattern: String
        var testDescription: String { name }
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static let loggers: [Logger] = [
        Logger(
            name: "docker logs --timestamps", prefix: { "2026-11-25T10:00:\(two($0 % 60)).\(123_456_789 + $0)Z " },
            pattern: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z "#),
        Logger(
            name: "journald", prefix: { "Nov 25 10:\(two($0 / 60 % 60)):\(two($0 % 60)) build-host app[4242]: " },
            pattern: #"^Nov 25 \d\d:\d\d:\d\d build-host app\[4242\]: "#),
        Logger(
            name: "kubectl logs --prefix", prefix: { _ in "[pod/app-7d9f5c/app] " },
            pattern: #"^\[pod/app-7d9f5c/app\] "#),
        Logger(
            name: "logcat threadtime",
            prefix: { "11-25 10:00:\(two($0 % 60)).\(100 + $0 % 900)  \(4242)  \(4250 + $0 % 3) F DEBUG   : " },
            pattern: #"^11-25 \d\d:\d\d:\d\d\.\d{3}  4242  \d{4} F DEBUG   : "#),
        Logger(name: "logcat brief", prefix: { _ in "F/DEBUG   ( 4242): " }, pattern: #"^F/DEBUG   \( 4242\): "#),
        Logger(
            name: "CI runner", prefix: { "2026-11-25T10:00:\(two($0 % 60)).\(1_234_567 + $0)Z " },
            pattern: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z "#),
        Logger(
            name: "timestamp and level", prefix: { "2026-11-25 10:00:\(two($0 % 60)),\(100 + $0 % 900) ERROR [main] " },
            pattern: #"^2026-11-25 \d\d:\d\d:\d\d,\d{3} ERROR \[main\] "#)
    ]

    /// Every sample log, with the folder holding what resolves it.
    static var logs: [(folder: String, log: String)] { SampleLogBatch.logs.map { ($0.folder, $0.name) } }

    static func applying(_ logger: Logger, to text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        let last = lines.last == "" ? lines.removeLast() : nil
        return lines.enumerated().map { logger.prefix($0.offset) + $0.element }.joined(separator: "\n")
            + (last == nil ? "" : "\n")
    }

    /// Frames with symbols, of all frames, in a `--json` run's reports.
    static func resolvedFrames(_ json: String) throws -> (resolved: Int, total: Int) {
        var resolved = 0, total = 0
        for line in json.split(separator: "\n") {
            let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for thread in report["threads"] as? [[String: Any]] ?? [] {
                for frame in thread["frames"] as? [[String: Any]] ?? [] {
                    total += 1
                    if !(frame["symbols"] as? [Any] ?? []).isEmpty { resolved += 1 }
                }
            }
        }
        return (resolved, total)
    }

    /// Every sample log with the logger's prefix, in one run with all the others (`SampleLogBatch`): the same reports
    /// as the clean logs give, and printed back line for line with the prefix in place.
    @Test(arguments: loggers)
    func everySampleReadsAsWithoutThePrefix(_ logger: Logger) throws {
        #expect(SampleLogBatch.logs.count >= 17, "the sample logs were not all found")
        let clean = try SampleLogBatch.clean.get()
        let prefix = try NSRegularExpression(pattern: logger.pattern)
        let batch = try SampleLogBatch("prefixed") { Self.applying(logger, to: $0.text) }

        let json = try batch.run(SampleLogBatch.symbolicate + ["--json"])
        #expect(json.status == 0, "\(logger.name): \(json.standardError)")
        #expect(
            json.standardOutput == clean.json,
            "\(logger.name): the reports differ at \(SampleLogBatch.firstDifference(json.standardOutput, clean.json))")
        let (resolved, total) = try Self.resolvedFrames(json.standardOutput)

        // Printed back: every line keeps a prefix of the logger's shape, and without it reads as the clean output.
        let printed = try batch.parts(of: batch.run(SampleLogBatch.symbolicate))
        for (log, (lines, expectedLines)) in zip(SampleLogBatch.logs, zip(printed, clean.text)) {
            #expect(lines.count == expectedLines.count, "\(logger.name), \(log.folder)/\(log.name)")
            for (line, expected) in zip(lines, expectedLines) {
                let range = NSRange(line.startIndex..., in: line)
                let match = prefix.firstMatch(in: line, range: range)
                #expect(match != nil, "\(logger.name), \(log.name): no prefix on \(line)")
                let rest = match.flatMap { Range($0.range, in: line) }.map { String(line[$0.upperBound...]) } ?? line
                #expect(rest == expected, "\(logger.name), \(log.folder)/\(log.name)")
            }
        }
        print("\(logger.name): \(resolved) of \(total) frames of the samples resolve")
        #expect(resolved > total / 2)
    }

    /// Two crashes in one file (a log appended to, `cat` of two logs): two reports, each as it reads alone, in JSON
    /// and in text; also through a logger's prefix.
    @Test(arguments: [
        "SampleCrashes/linux-c-asan/asan.txt", "SampleCrashes/apple-objc-arm64/App.crash",
        "SampleCrashes/linux-swift-backtrace/fatal.txt", "SampleCrashes/linux-swift-backtrace/crash.txt",
        "SampleCrashes/linux-c-signal/coredump.txt", "SampleCrashes/linux-c-sensors/gdb-bt.txt"
    ])
    func severalCrashesInOneFile(_ log: String) throws {
        let scratch = try BadInputTests.Scratch()
        let folder = (log as NSString).deletingLastPathComponent
        let original = try String(contentsOfFile: Paths.packageRoot.appendingPathComponent(log).path, encoding: .utf8)
        try original.write(toFile: scratch.path("one.txt"), atomically: true, encoding: .utf8)
        try (original + original).write(toFile: scratch.path("two.txt"), atomically: true, encoding: .utf8)
        try Self.applying(Self.loggers[1], to: original + original).write(
            toFile: scratch.path("two-journald.txt"), atomically: true, encoding: .utf8)
        let arguments = ["symbolicate", "--no-cache", "-d", folder]
        let one = try Command.postmortem(arguments + ["--json", scratch.path("one.txt")]).outputLines
        #expect(one.count == 1)
        for name in ["two.txt", "two-journald.txt"] {
            let two = try Command.postmortem(arguments + ["--json", scratch.path(name)]).outputLines
            #expect(two == one + one, "\(log), \(name): two reports, each as it reads alone")
        }
        let oneText = try Command.postmortem(arguments + [scratch.path("one.txt")]).standardOutput
        let twoText = try Command.postmortem(arguments + [scratch.path("two.txt")]).standardOutput
        #expect(twoText == oneText + oneText)
    }

    /// A tombstone in logcat among other processes' lines — one of them logging a tombstone-like stack of its own —
    /// reads as the tombstone alone: its writer's lines (by pid), as logcat's `threadtime` and `brief` columns and the
    /// `--------- TAG (pid):` headers some tools write name them. The tombstones are AOSP's (Tests/CrashLogsTests/Corpus).
    @Test(arguments: ["threadtime", "brief", "headers"])
    func aTombstoneInterleavedWithOtherProcesses(_ style: String) throws {
        let scratch = try BadInputTests.Scratch()
        let corpus = Paths.packageRoot.appendingPathComponent("Tests/CrashLogsTests/Corpus/android-tombstone")
        let tombstone = try String(
            contentsOf: corpus.appendingPathComponent("aosp-x86_64-crasher-sigabrt-trimmed.txt"), encoding: .utf8
        )
        .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let other = try String(
            contentsOf: corpus.appendingPathComponent("aosp-arm64-crasher-sigabrt-trimmed.txt"), encoding: .utf8
        )
        .split(separator: "\n").map(String.init).filter { $0.contains(" pc ") }
        #expect(tombstone.count > 20 && other.count > 5)
        func written(_ line: String, pid: Int, tag: String, at number: Int) -> String {
            switch style {
            case "threadtime":
                "11-25 10:00:\(Self.two(number % 60)).\(100 + number % 900)  \(pid)  \(pid + 3) F \(tag): \(line)"
            case "brief": "F/\(tag)( \(pid)): \(line)"
            default: line
            }
        }
        var clean: [String] = [], mixed: [String] = []
        var noise = 0
        for (number, line) in tombstone.enumerated() {
            if style == "headers", number == 0 { clean.append("--------- DEBUG (1232):") }
            clean.append(written(line, pid: 1232, tag: "DEBUG   ", at: number))
            // After the `pid:` header, every third line another process writes: its own stack, or an unrelated line.
            if line.contains("pid: ") || number % 3 != 0
                || !tombstone[..<number].contains(where: { $0.contains("pid: ") })
            {
                mixed.append(clean.last!)
                if style == "headers", number == 0 { mixed.insert(clean[0], at: mixed.count - 1) }
                continue
            }
            let foreign =
                noise % 2 == 0 ? other[noise / 2 % other.count] : "Killing 4242:com.example/u0a42 (adj 900): empty #17"
            noise += 1
            if style == "headers" { mixed.append("--------- ActivityManager (777):") }
            mixed.append(written(foreign, pid: 777, tag: "ActivityManager", at: number))
            if style == "headers" { mixed.append("--------- DEBUG (1232):") }
            mixed.append(clean.last!)
        }
        #expect(noise >= 6)
        try (clean.joined(separator: "\n") + "\n").write(
            toFile: scratch.path("clean.txt"), atomically: true, encoding: .utf8)
        try (mixed.joined(separator: "\n") + "\n").write(
            toFile: scratch.path("mixed.txt"), atomically: true, encoding: .utf8)
        let alone = try Command.postmortem(["symbolicate", "--parse-only", "--json", scratch.path("clean.txt")])
        let read = try Command.postmortem(["symbolicate", "--parse-only", "--json", scratch.path("mixed.txt")])
        #expect(alone.outputLines.count == 1 && alone.standardOutput.contains("\"frames\""))
        #expect(read.status == 0 && read.standardOutput == alone.standardOutput, "\(style): \(read.standardOutput)")
        // Printed back, every line of the input is there, in its place.
        let printed = try Command.postmortem(["symbolicate", "--parse-only", scratch.path("mixed.txt")])
        #expect(printed.outputLines == mixed)
    }

    /// CRLF line endings and a report in the middle of other program output read as the report alone.
    @Test func crlfAndSurroundingOutput() throws {
        let scratch = try BadInputTests.Scratch()
        let folder = "SampleCrashes/linux-c-signal"
        let original = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(folder)/segv-lib.txt").path, encoding: .utf8)
        let noise = (1...40).map { "worker \($0): processed batch \($0 * 7) in \($0 % 9) ms" }
        let mixed =
            (noise[..<20] + original.split(separator: "\n").map(String.init) + noise[20...]).joined(separator: "\r\n")
            + "\r\n"
        try mixed.write(toFile: scratch.path("mixed.txt"), atomically: true, encoding: .utf8)
        try original.write(toFile: scratch.path("clean.txt"), atomically: true, encoding: .utf8)
        let clean = try Command.postmortem([
            "symbolicate", "--no-cache", "--json", "-d", folder, scratch.path("clean.txt")
        ])
        let read = try Command.postmortem([
            "symbolicate", "--no-cache", "--json", "-d", folder, scratch.path("mixed.txt")
        ])
        #expect(try Self.resolvedFrames(read.standardOutput) == Self.resolvedFrames(clean.standardOutput))
        let text = try Command.postmortem(["symbolicate", "--no-cache", "-d", folder, scratch.path("mixed.txt")])
        #expect(text.standardOutput.contains("at ./lib.c:3:50 (inlined)\r\n"), "CRLF kept on added lines")
        #expect(text.standardOutput.hasPrefix("worker 1: processed batch 7 in 1 ms\r\n"))
    }
}
