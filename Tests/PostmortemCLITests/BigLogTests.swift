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
        // Lines of control bytes, more than the megabyte a piece's end looks ahead for a report: a piece begins in them.
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
}
