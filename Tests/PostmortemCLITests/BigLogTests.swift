import Foundation
import TestSupport
import Testing

/// A log file above two pieces is read a piece at a time, the next pieces parsed on another thread while the reports
/// of one are answered and printed (small pieces here, `POSTMORTEM_PIECE_SIZE`, so that a small file has many).
@Suite("One big log")
struct BigLogTests {
    static let report = "SampleCrashes/linux-c-asan/asan.txt"
    static let arguments = ["symbolicate", "--no-cache", "-d", "SampleCrashes/linux-c-asan"]
    static let pieces = ["POSTMORTEM_PIECE_SIZE": "65536"]

    @Test func reportsComeInTheLogsOrder() throws {
        let scratch = try BadInputTests.Scratch()
        let one = try Command.postmortem(Self.arguments + [Self.report])
        try #require(one.status == 0 && one.standardOutput.contains(" in value_at "), "\(one.standardError)")
        let text = try String(contentsOfFile: Paths.packageRoot.path + "/" + Self.report, encoding: .utf8)
        // Each copy numbered in a line of its own before it, so that an order mixed up shows.
        let count = 400
        let log = (0..<count).map { "run \($0)\n" + text }.joined()
        try Data(log.utf8).write(to: URL(fileURLWithPath: scratch.path("big.txt")))
        try #require(log.utf8.count > 10 * 65_536)
        let big = try Command.run(
            Paths.postmortem, Self.arguments + [scratch.path("big.txt")], environment: Self.pieces)
        #expect(big.status == 0, "\(big.standardError)")
        // Line for line as the report alone, in order: pieces end where a report begins, so none is cut in two (its
        // frames numbered again in one piece, its `SUMMARY:` line left as the log had it in the other).
        let expected = (0..<count).map { "run \($0)\n" + one.standardOutput }.joined()
        #expect(big.standardOutput == expected)
    }

    @Test func controlBytesInALaterPieceAreLinesOfTheLog() throws {
        let scratch = try BadInputTests.Scratch()
        let text = try String(contentsOfFile: Paths.packageRoot.path + "/" + Self.report, encoding: .utf8)
        var bytes = Array(String(repeating: text, count: 200).utf8)
        // Lines of control bytes, more than a piece's end looks ahead for a report (eight pieces): a piece begins in them.
        let control = [UInt8](repeating: 1, count: 99) + [UInt8(ascii: "\n")]
        for _ in 0..<15_000 { bytes += control }
        bytes += Array(String(repeating: text, count: 200).utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.path("mixed.txt")))
        let result = try Command.run(
            Paths.postmortem, Self.arguments + [scratch.path("mixed.txt")], environment: Self.pieces)
        // The log's first bytes are text: what follows is printed as it is, never refused as a binary file.
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.components(separatedBy: " in value_at ").count == 401, "every report")
        let output = Array(result.standardOutput.utf8)
        #expect(output.count(where: { $0 == 1 }) == 15_000 * 99, "every control byte printed back")
    }

    /// A report larger than a piece, up to eight of them, is one report: one object of `--json`, one crash of `group`.
    /// A larger one is read a piece at a time, each piece an object of `--json`, and is still one crash of `group`.
    @Test(arguments: [(20_000, 1), (100_000, 4)])
    func aReportLargerThanAPieceIsOneCrash(_ size: Int, _ leastObjects: Int) throws {
        let scratch = try BadInputTests.Scratch()
        let sample = "SampleCrashes/linux-c-signal"
        let lines = try String(contentsOfFile: Paths.packageRoot.path + "/\(sample)/segv-pie.txt", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let header = lines.filter { !$0.contains("[0x") }, frames = lines.filter { $0.contains("[0x") }
        try #require(!header.isEmpty && frames.count > 3)
        // The crash's trace with its innermost frames over and over: one deep stack.
        var log = header + [frames[0]]
        while log.joined(separator: "\n").utf8.count < size { log += frames[1...2] }
        log += frames[3...]
        try (log.joined(separator: "\n") + "\n").write(
            toFile: scratch.path("deep.txt"), atomically: true, encoding: .utf8)
        let small = ["POSTMORTEM_PIECE_SIZE": "4096"]
        let objects = try Command.run(
            Paths.postmortem, ["symbolicate", "--no-cache", "--json", "-d", sample, scratch.path("deep.txt")],
            environment: small)
        #expect(objects.status == 0, "\(objects.standardError)")
        let count = objects.outputLines.count
        #expect(leastObjects == 1 ? count == 1 : count >= leastObjects, "\(count) objects")
        let grouped = try Command.run(
            Paths.postmortem, ["group", "--no-cache", "--json", "-d", sample, scratch.path("deep.txt")],
            environment: small)
        #expect(grouped.status == 0, "\(grouped.standardError)")
        let answer = try JSONSerialization.jsonObject(with: Data(grouped.standardOutput.utf8)) as? [String: Any]
        let groups = try #require(answer?["groups"] as? [[String: Any]], "\(grouped.standardOutput)")
        #expect(groups.map { $0["count"] as? Int ?? 0 }.reduce(0, +) == 1, "\(groups)")
    }

    /// Every crash of a log of many, read in pieces, is counted once by `group`, as when the log is read whole: a
    /// piece that begins with a report's frames (a glibc trace's heading left in the piece before) begins a crash, not
    /// the one before's continuation.
    @Test(arguments: ["SampleCrashes/linux-c-signal/segv-pie.txt", "SampleCrashes/linux-c-asan/asan.txt"])
    func groupCountsEveryCrashOfALogReadInPieces(_ sample: String) throws {
        let scratch = try BadInputTests.Scratch()
        let text = try String(contentsOfFile: Paths.packageRoot.path + "/" + sample, encoding: .utf8)
        let count = 300
        // Each run of the program at load addresses of its own, as ASLR gives (a glibc trace printed twice at the same
        // addresses is one process's).
        let runs = (0..<count).map { run in
            text.replacing(/\[0x([0-9a-f]+)\]/) { match in
                "[0x" + String((UInt64(match.output.1, radix: 16) ?? 0) + UInt64(run) << 12, radix: 16) + "]"
            }
        }
        try runs.joined().write(toFile: scratch.path("many.txt"), atomically: true, encoding: .utf8)
        try #require(text.utf8.count * count > 20 * 4096)
        let folder = (sample as NSString).deletingLastPathComponent
        let grouped = try Command.run(
            Paths.postmortem, ["group", "--no-cache", "--json", "-d", folder, scratch.path("many.txt")],
            environment: ["POSTMORTEM_PIECE_SIZE": "4096"])
        #expect(grouped.status == 0, "\(grouped.standardError)")
        let answer = try JSONSerialization.jsonObject(with: Data(grouped.standardOutput.utf8)) as? [String: Any]
        let groups = try #require(answer?["groups"] as? [[String: Any]], "\(grouped.standardOutput)")
        #expect(groups.map { $0["count"] as? Int ?? 0 }.reduce(0, +) == count, "\(groups)")
    }

    /// A log carried as JSON lines (docker's) or behind a logger's prefix is cut where its reports begin in the
    /// messages, not in the middle of one: read in pieces, it reads as it does whole (no report cut in two, its
    /// `SUMMARY:` left unresolved in the next piece).
    @Test(arguments: ["json", "prefix"])
    func aFramedLogIsCutWhereItsReportsBegin(_ framing: String) throws {
        let scratch = try BadInputTests.Scratch()
        let text = try String(contentsOfFile: Paths.packageRoot.path + "/" + Self.report, encoding: .utf8)
        var log = ""
        for run in 0..<150 {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                let time = "2026-12-02T10:00:00.\(String(format: "%06d", run))Z"
                if framing == "json" {
                    let message = String(decoding: try JSONEncoder().encode(String(line) + "\n"), as: UTF8.self)
                    log += "{\"log\":\(message),\"stream\":\"stderr\",\"time\":\"\(time)\"}\n"
                } else {
                    log += "\(time) stderr F \(line)\n"
                }
            }
        }
        try log.write(toFile: scratch.path("framed.log"), atomically: true, encoding: .utf8)
        let arguments = Self.arguments + [scratch.path("framed.log")]
        let whole = try Command.run(Paths.postmortem, arguments, environment: ["POSTMORTEM_PIECE_SIZE": "100000000"])
        let pieces = try Command.run(Paths.postmortem, arguments, environment: ["POSTMORTEM_PIECE_SIZE": "8192"])
        #expect(whole.status == 0 && pieces.status == 0, "\(whole.standardError)\n\(pieces.standardError)")
        #expect(whole.standardOutput.components(separatedBy: ".c:9:21 in value_at").count == 151, "every SUMMARY read")
        #expect(pieces.standardOutput == whole.standardOutput)
    }
}
