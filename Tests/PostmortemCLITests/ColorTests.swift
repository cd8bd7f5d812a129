import Foundation
import TestSupport
import Testing

/// Colour on a terminal only: under a pseudo-terminal (`script`) by default, never into a pipe or a file or in
/// JSON; `NO_COLOR` and `TERM=dumb` turn it off, `CLICOLOR_FORCE` and `--color always` on, `--color never` off.
@Suite("Colour")
struct ColorTests {
    static let log = "SampleCrashes/linux-swift-backtrace/crash.txt"
    static let escape = "\u{1B}["
    /// The colour conventions unset (an empty value counts as unset), whatever the tests' own environment holds.
    static let neutral = ["NO_COLOR": "", "CLICOLOR_FORCE": "", "TERM": "xterm"]

    /// Runs `postmortem ARGUMENTS` under a pseudo-terminal, with `environment` set, and returns what it printed.
    static func onTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let script = try #require(Paths.executable(named: "script"), "script (util-linux) is needed")
        let command = ([Paths.postmortem] + arguments).map { "'\($0)'" }.joined(separator: " ") + " 2>/dev/null"
        var variables = Command.foregroundCacheWrites.merging(["POSTMORTEM_CACHE_DIR": Command.indexCacheDirectory]) {
            $1
        }.merging(neutral) { $1 }
        variables.merge(environment) { $1 }
        return try Command.run(script, ["-qec", command, "/dev/null"], environment: variables).standardOutput
    }

    @Test func onATerminalOnly() throws {
        let plain = try Command.postmortem(["symbolicate", Self.log]).standardOutput
        #expect(!plain.contains(Self.escape), "a pipe gets no colour")
        let coloured = try Self.onTerminal(["symbolicate", Self.log])
        #expect(coloured.contains("\u{1B}[1mInventory.required(_:)\u{1B}[0m"), "\(coloured)")
        #expect(coloured.contains("\u{1B}[36m./Inventory.swift:7:47\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[1;31mThread 0 \"inventory\" crashed:"))
        // Without its escapes, what a terminal shows is the plain output.
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r\n", with: "\n")
        #expect(stripped == plain)
        for environment in [["NO_COLOR": "1"], ["TERM": "dumb"]] {
            #expect(
                !(try Self.onTerminal(["symbolicate", Self.log], environment: environment)).contains(Self.escape),
                "\(environment)")
        }
        #expect(!(try Self.onTerminal(["symbolicate", "--color", "never", Self.log])).contains(Self.escape))
        #expect(
            !(try Self.onTerminal(["symbolicate", "--json", Self.log])).contains(Self.escape), "JSON is never coloured")
        #expect(
            try Command.postmortem(["symbolicate", "--color", "always", Self.log]).standardOutput.contains(Self.escape))
        let forced = try Command.run(
            Paths.postmortem, ["symbolicate", Self.log],
            environment: Self.neutral.merging(["CLICOLOR_FORCE": "1"]) { $1 }
        ).standardOutput
        #expect(forced.contains(Self.escape))
        let scratch = try BadInputTests.Scratch()
        _ = try Self.onTerminal(["symbolicate", "--output", scratch.path("out.txt"), Self.log])
        #expect(
            !(try String(contentsOfFile: scratch.path("out.txt"), encoding: .utf8)).contains(Self.escape),
            "a file gets no colour")
    }

    /// `resolve` too: the function and its place coloured on a terminal, plain into a pipe.
    @Test func resolveOnATerminal() throws {
        let arguments = ["resolve", "-o", "SampleCrashes/linux-c-signal/app", "0x1290"]
        let plain = try Command.postmortem(arguments).standardOutput
        #expect(plain == "process (in app) (crash.c:26)\n")
        let coloured = try Self.onTerminal(arguments)
        #expect(coloured.contains("\u{1B}[1mprocess\u{1B}[0m (in app) (\u{1B}[36mcrash.c:26\u{1B}[0m)"), "\(coloured)")
        #expect(!(try Self.onTerminal(arguments + ["--color", "never"])).contains(Self.escape))
    }

    /// Unresolved frames dim; a name that differs from the one the log gave (an alias: the log's `gsignal`, the debug
    /// information's `raise`) in its own colour.
    @Test func unresolvedAndDifferingFrames() throws {
        try SampleMachine.require(SampleMachine.glibc(), debugFile: true)
        // The log alone in a folder, its binary not beside it: its program's frames stay unresolved.
        let scratch = try BadInputTests.Scratch()
        try FileManager.default.copyItem(
            atPath: Paths.packageRoot.appendingPathComponent("SampleCrashes/linux-c-sensors/crash.txt").path,
            toPath: scratch.path("crash.txt"))
        let alone = try Command.postmortem(["symbolicate", "--color", "always", scratch.path("crash.txt")]).outputLines
        #expect(
            alone.contains { $0.hasPrefix("\u{1B}[2m") && $0.contains("./sensors") },
            "frames whose binary is not found are dim: \(alone)")
        // An exception's address list too: dim when none of its addresses resolved, plain when some did.
        let exception = "Tests/PostmortemCLITests/Logs/nsexception-console.txt"
        let list = { (lines: [String]) in lines.first { $0.contains("0x18278ae38") } ?? "" }
        let unresolvedList = list(try Command.postmortem(["symbolicate", "--color", "always", exception]).outputLines)
        #expect(unresolvedList.hasPrefix("\u{1B}[2m"), "\(unresolvedList)")
        let resolvedList = list(
            try Command.postmortem([
                "symbolicate", "--color", "always", "--no-cache", "-o", "Tests/Fixtures/Apple/bin/App.dSYM",
                "--arch", "arm64", "-l", "0x104a3c000", exception
            ]).outputLines)
        #expect(resolvedList == "(0x18278ae38 0x104a3c904 0x104a3c944 0x1822068b8)")
        let report = try Command.postmortem(["symbolicate", "--json", "SampleCrashes/linux-c-sensors/crash.txt"])
            .standardOutput
        let frames =
            ((try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])?["threads"]
            as? [[String: Any]])?.first?["frames"] as? [[String: Any]] ?? []
        let differing = frames.first { frame in
            guard let logged = frame["symbolInLog"] as? String,
                let symbol = (frame["symbols"] as? [[String: Any]])?.last
            else { return false }
            return symbol["function"] as? String != logged
        }
        // libc6-dbg (make test installs it) names the log's `gsignal` frame `raise`.
        let name = try #require(
            (differing?["symbols"] as? [[String: Any]])?.last?["function"] as? String,
            "a frame named otherwise than in the log")
        let text = try Command.postmortem([
            "symbolicate", "--color", "always", "SampleCrashes/linux-c-sensors/crash.txt"
        ]).standardOutput
        #expect(text.contains("\u{1B}[1;33m\(name)\u{1B}[0m"), "\(text)")
    }
}
