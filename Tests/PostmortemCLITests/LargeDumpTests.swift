import Foundation
import TestSupport
import Testing

/// `po` on 100 MB of dumped text: best-effort output and a one-line note, with memory bounded by the value budget
/// (a tree of every value in this input would take several gigabytes); inputs above 256 MB are refused.
@Suite("Large dumps")
struct LargeDumpTests {
    @Test(.enabled(if: Paths.runsTheReleaseBinary, "100 MB runs on the release binary, make test's second pass"))
    func hundredMegabytesOfPrintOutput() throws {
        let scratch = try BadInputTests.Scratch()
        let file = scratch.path("large.print.txt")
        let item = #"Person(name: "Ada, \"the\" Countess", age: 36, tags: ["x", "y"]), "#
        let count = 100 * 1024 * 1024 / item.utf8.count
        try Data(("[" + String(repeating: item, count: count) + "nil]").utf8).write(to: URL(fileURLWithPath: file))
        let report = scratch.path("rss")
        let result = try Command.run(
            "/usr/bin/time",
            ["-f", "%M", "-o", report, Paths.postmortem, "po", "--style", "line", "--max-items", "2", file])
        #expect(result.status == 0)
        #expect(
            result.errorLines == [
                "postmortem: \(file): more than 1000000 values; the first 1000000 are shown, the rest is left out (… or null)"
            ])
        #expect(
            result.standardOutput.hasPrefix(
                #"[Person(name: "Ada, \"the\" Countess", age: 36, tags: ["x", "y"]), Person("#))
        let peakKiB =
            Int(try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
            ?? .max
        #expect(peakKiB < 1_536 * 1024, "peak RSS \(peakKiB) KiB")
    }

    /// One JSON array of more values than the budget is printed whole, an element at a time: no note, every value, and
    /// memory that grows with the text but not with the values (a tree of them costs about 150 bytes a value; each is
    /// 3 bytes of text here).
    @Test func aLargeCollectionIsPrintedWholeInMemoryBoundedByItsText() throws {
        let scratch = try BadInputTests.Scratch()
        var peaks: [(bytes: Int, kib: Int)] = []
        for count in [550_000, 1_100_000] {
            let file = scratch.path("array-\(count).json")
            let text = "[" + (0..<count).map { String($0 % 10) }.joined(separator: ", ") + "]"
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let report = scratch.path("rss-\(count)")
            let result = try Command.run(
                "/usr/bin/time", ["-f", "%M", "-o", report, Paths.postmortem, "po", "--style", "json", file])
            #expect(result.status == 0)
            #expect(result.errorLines.isEmpty)
            // JSON in, JSON out: the same text, every value of it.
            #expect(result.standardOutput == text + "\n", "\(result.standardOutput.count) characters printed")
            let kib =
                Int(try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
                ?? .max
            peaks.append((text.utf8.count, kib))
        }
        let grownBytes = peaks[1].bytes - peaks[0].bytes
        let grownKiB = peaks[1].kib - peaks[0].kib
        #expect(grownKiB * 1024 < 2 * grownBytes, "peak RSS \(peaks[0].kib) → \(peaks[1].kib) KiB")
    }

    /// Inputs above 256 MB are refused in one line before they are read (a sparse file: nothing is written).
    @Test func inputsAboveTheLimitAreRefused() throws {
        let scratch = try BadInputTests.Scratch()
        let file = scratch.path("huge.txt")
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: 300 << 20)
        try handle.close()
        for command in ["po", "symbolicate"] {
            let result = try Command.postmortem([command, file])
            #expect(result.status == 1)
            #expect(
                result.errorLines == ["postmortem: \(file): larger than 256 MB, the most this command reads"],
                "\(command)")
        }
    }
}
