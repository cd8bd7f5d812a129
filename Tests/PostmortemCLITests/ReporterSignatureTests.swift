import Foundation
import TestSupport
import Testing

/// One crash, reported by tools that see different things of it, signs alike: a call inlined from a function of
/// internal linkage, which gdb names by its scope and the debug information (as llvm-symbolizer and lldb read it) by
/// its bare name; a Swift async crash, whose async callers the runtime's backtracer and a core's walk see and a
/// debugger's stack, a minidump's walk and minidump-stackwalk's do not.
@Suite("Signatures whoever reported the crash")
struct ReporterSignatureTests {
    @Test func anInlinedCallSignsAlikeNamedByItsScopeOrNot() throws {
        let directory = try CrashingPrograms.directory.get()
        let folder = Fixtures.scratchDirectory("inlined-scope")
        let program = directory + "/scoped"
        try CrashingPrograms.glibcTrace(of: "scoped", in: directory)
            .write(toFile: folder + "/trace.txt", atomically: true, encoding: .utf8)
        let core = try #require(
            try CrashingPrograms.gdbCore(of: CrashingPrograms.Crash(program: "scoped"), in: directory),
            "gdb wrote no core")
        let bt = try GDBOnCoreTests.gdb("bt", program: program, core: core)
        // What the test is about: gdb names the inlined call by its scope, the debug information does not.
        #expect(GDBOnCoreTests.lastStack(bt).contains("worker::compute"), "\(bt)")
        try bt.write(toFile: folder + "/bt.txt", atomically: true, encoding: .utf8)
        let lldb = try #require(Paths.executable(named: "lldb-14"), "lldb-14 is needed; make test installs it")
        let lldbBacktrace = try Command.run(lldb, ["-b", "-o", "target create --core \(core) \(program)", "-o", "bt"])
        #expect(lldbBacktrace.standardOutput.contains("[inlined] compute"), "\(lldbBacktrace.standardOutput)")
        try lldbBacktrace.standardOutput.write(toFile: folder + "/lldb.txt", atomically: true, encoding: .utf8)

        let groups = try Command.postmortem([
            "group", "--json", "-d", directory, folder + "/trace.txt", folder + "/bt.txt", folder + "/lldb.txt", core
        ])
        #expect(groups.status == 0, "\(groups.standardError)")
        let signatures = try GroupTests.groups(groups).compactMap { $0["signature"] as? String }
        #expect(signatures == ["sum_chain | compute | worker::run"])
    }

    @Test func anAsyncCrashSignsAlikeWhetherItsAsyncCallersAreSeenOrNot() throws {
        let directory = try CrashingPrograms.directory.get()
        let folder = Fixtures.scratchDirectory("async-signature")
        let crash = CrashingPrograms.Crash(program: "crashes", arguments: ["async"])
        for (name, settings) in [("report.txt", ""), ("report.json", ",format=json")] {
            let run = try Command.run(
                directory + "/with-default-signals", [directory + "/crashes", "async"],
                currentDirectory: URL(fileURLWithPath: directory),
                environment: ["SWIFT_BACKTRACE": "enable=yes,interactive=no,color=no" + settings])
            #expect(run.standardError.contains("async"), "\(run.standardError)")
            try run.standardError.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        let core = try #require(try CrashingPrograms.gdbCore(of: crash, in: directory), "gdb wrote no core")
        let bt = try GDBOnCoreTests.gdb("bt", program: directory + "/crashes", core: core)
        // What the test is about: the runtime's report names async callers, which gdb's stack has not.
        #expect(!GDBOnCoreTests.lastStack(bt).contains { $0.contains("loadAll") }, "\(bt)")
        try bt.write(toFile: folder + "/bt.txt", atomically: true, encoding: .utf8)

        // Crashpad's minidump of it, read here and by minidump-stackwalk: machine stacks, as gdb's.
        let dump = try CrashpadDumps.dump(of: crash, in: directory)
        let stackwalk = try Command.run(try CrashpadDumps.oracle("minidump-stackwalk"), [dump])
        #expect(stackwalk.standardOutput.contains("(crashed)"), "\(stackwalk.standardError)")
        try stackwalk.standardOutput.write(toFile: folder + "/stackwalk.txt", atomically: true, encoding: .utf8)

        let groups = try Command.postmortem([
            "group", "--json", "-d", directory, folder + "/report.txt", folder + "/report.json", folder + "/bt.txt",
            core, dump, folder + "/stackwalk.txt"
        ])
        #expect(groups.status == 0, "\(groups.standardError)")
        let signatures = try GroupTests.groups(groups).compactMap { $0["signature"] as? String }
        #expect(signatures.count == 1, "\(signatures)")
        let frames = signatures.first?.components(separatedBy: " | ") ?? []
        #expect(frames.contains("element(_:_:)") && frames.contains("checkedElement(_:_:)"), "\(signatures)")
        #expect(!frames.contains("loadAll"), "\(signatures)")

        let explained = try Command.postmortem(["group", "-d", directory, "--explain", folder + "/report.txt"])
        #expect(explained.standardOutput.contains("loadAll"), "\(explained.standardOutput)")
        #expect(explained.standardOutput.contains("skipped (an async caller"), "\(explained.standardOutput)")
    }
}
