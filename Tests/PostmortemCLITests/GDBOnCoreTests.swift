import Foundation
import TestSupport
import Testing

/// gdb's `bt` and `thread apply all bt` on a core of a program the tests build, read back: gdb prints the frame the
/// program stopped in on a line of its own before `bt` prints it again, and lists threads from the last; the oracle
/// is gdb's own stack of the crashed thread and the core itself.
@Suite("gdb on a core")
struct GDBOnCoreTests {
    /// gdb's output of `command` on `core` of `program`.
    static func gdb(_ command: String, program: String, core: String) throws -> String {
        try Command.run(
            "/usr/bin/env", ["gdb", "-batch", "-nx", "-ex", "set debuginfod enabled off", "-ex", command, program, core]
        )
        .standardOutput
    }

    /// The function of each frame of gdb's last stack in `output` (from its last `#0`).
    static func lastStack(_ output: String) -> [String] {
        let lines = output.split(separator: "\n").map(String.init)
        guard let start = lines.lastIndex(where: { $0.hasPrefix("#0 ") }) else { return [] }
        return lines[start...].prefix { $0.hasPrefix("#") }.map { line in
            var text = line.drop { $0 != " " }.drop { $0 == " " }
            if text.hasPrefix("0x"), let range = text.range(of: " in ") { text = text[range.upperBound...] }
            return String(text.prefix { $0 != " " && $0 != "(" })
        }
    }

    static func threads(_ result: CommandResult) throws -> [[String: Any]] {
        let report = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return try #require(report?["threads"] as? [[String: Any]], "\(result.standardError)")
    }

    static func functions(_ thread: [String: Any]) -> [String] {
        ((thread["frames"] as? [[String: Any]]) ?? []).map { frame in
            ((frame["symbols"] as? [[String: Any]])?.first?["function"] as? String) ?? "?"
        }
    }

    @Test("The stop frame is no thread, the crashed thread is the one gdb names current, and all sign as the core does")
    func gdbsOutputReadsAsTheCore() throws {
        let directory = try CrashingPrograms.directory.get()
        let crash = CrashingPrograms.Crash(program: "threads")
        let core = try #require(try CrashingPrograms.gdbCore(of: crash, in: directory), "gdb wrote no core")
        let program = directory + "/" + crash.program
        let bt = try Self.gdb("bt", program: program, core: core)
        let all = try Self.gdb("thread apply all bt", program: program, core: core)
        let expected = Self.lastStack(bt)
        // What the test is about: gdb repeats the stop frame above `bt`'s stack.
        #expect(bt.split(separator: "\n").filter { $0.hasPrefix("#0 ") }.count == 2, "\(bt)")
        #expect(expected.count >= 3 && expected.contains("compute"), "\(bt)")
        let folder = Fixtures.scratchDirectory("gdb-on-core")
        try bt.write(toFile: folder + "/bt.txt", atomically: true, encoding: .utf8)
        try all.write(toFile: folder + "/all.txt", atomically: true, encoding: .utf8)

        let one = try Self.threads(Command.postmortem(["symbolicate", "--json", "-d", directory, folder + "/bt.txt"]))
        #expect(one.count == 1)
        #expect(one.first?["crashed"] as? Bool == true)
        #expect(one.first.map(Self.functions) == expected, "gdb's names are kept as the frames' symbols")

        let every = try Self.threads(
            Command.postmortem(["symbolicate", "--json", "-d", directory, folder + "/all.txt"]))
        let headers = all.split(separator: "\n").filter { $0.hasPrefix("Thread ") && $0.hasSuffix("):") }
        #expect(every.count == headers.count)
        let crashed = every.filter { $0["crashed"] as? Bool == true }
        #expect(crashed.count == 1)
        #expect(crashed.first.map(Self.functions) == expected)
        #expect(crashed.first?["index"] as? Int == 1, "gdb's current thread: \(all)")

        let groups = try Command.postmortem([
            "group", "--json", "-d", directory, folder + "/bt.txt", folder + "/all.txt", core
        ])
        #expect(groups.status == 0, "\(groups.standardError)")
        let signatures = try GroupTests.groups(groups).compactMap { $0["signature"] as? String }
        #expect(signatures.count == 1, "\(signatures)")
    }
}
