import Foundation
import TestSupport
import Testing

/// `postmortem core2md`: minidumps of the cores of the tests' crashes (x86-64 from the kernel, AArch64 from qemu-user)
/// walk as their cores walk here, and as minidump-stackwalk 0.25 walks them with dump_syms's symbol files: the
/// dumps are read by another tool, so the writer's layout is checked too, not only its agreement with this reader.
@Suite("Minidumps of cores")
struct Core2MDTests {
    /// Each thread's frame addresses, by thread id.
    static func addresses(_ report: [String: Any]) -> [Int: [String]] {
        var threads: [Int: [String]] = [:]
        for thread in report["threads"] as? [[String: Any]] ?? [] {
            guard let id = thread["index"] as? Int else { continue }
            threads[id] = (thread["frames"] as? [[String: Any]] ?? []).compactMap { $0["address"] as? String }
        }
        return threads
    }

    static func json(_ arguments: [String], in directory: String? = nil) throws -> [String: Any] {
        let result = try Command.run(
            Paths.postmortem, arguments,
            currentDirectory: directory.map { URL(fileURLWithPath: $0) } ?? Fixtures.packageRoot)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    static func convert(_ core: String, extra: [String] = []) throws -> String {
        let dump = core + ".dmp"
        let result = try Command.run(Paths.postmortem, ["core2md", "--offline", "-o", dump, core] + extra)
        #expect(result.status == 0, "\(result.standardError)")
        return dump
    }

    @Test(arguments: MinidumpTests.crashes)
    func aCoresDumpWalksAsTheCoreAndAsMinidumpStackwalk(_ crash: CrashingPrograms.Crash) throws {
        let directory = try CrashingPrograms.directory.get()
        let core = try #require(
            try CrashingPrograms.kernelCore(of: crash, in: directory)
                ?? CrashingPrograms.gdbCore(of: crash, in: directory))
        let dump = try Self.convert(core)
        let limit = ["--max-frames", "300"]
        let fromCore = try Self.json(["symbolicate", "--json", "--no-cache", "--offline", core] + limit)
        let fromDump = try Self.json(["symbolicate", "--json", "--no-cache", "--offline", dump] + limit)
        #expect(fromDump["format"] as? String == "minidump")
        #expect(Self.addresses(fromDump) == Self.addresses(fromCore), "\(crash)")
        let coreException = fromCore["exception"] as? [String: Any]
        #expect((fromDump["exception"] as? [String: Any])?["type"] as? String == coreException?["type"] as? String)

        let theirs = try CrashpadDumps.stackwalk(dump, symbols: try CrashpadDumps.symbolStore.get())
        let ours = try MinidumpTests.report(dump: dump)
        #expect(MinidumpTests.compareFrames(ours: ours, theirs: theirs, label: "\(crash)") >= 2)
    }

    /// An ARM64 dump: the AArch64 core qemu-user writes of the threaded C crash, written as a minidump and walked here
    /// (x30 as a leaf's return address) as minidump-stackwalk walks it.
    @Test func anARM64DumpWalksAsMinidumpStackwalk() throws {
        let (scratch, core) = try AArch64Crash.threadsCore()
        let dump = try Self.convert(core, extra: ["-e", scratch + "/threads"])

        let ours = try Self.json(["symbolicate", "--json", "--no-cache", "--offline", dump], in: scratch)
        let fromCore = try Self.json(["symbolicate", "--json", "--no-cache", "--offline", core], in: scratch)
        #expect(Self.addresses(ours) == Self.addresses(fromCore))
        let store = try CrashpadDumps.symbolStore(of: [scratch + "/threads"])
        let theirs = try CrashpadDumps.stackwalk(dump, symbols: store)
        #expect((theirs["system_info"] as? [String: Any])?["cpu_arch"] as? String == "arm64")
        #expect(MinidumpTests.compareFrames(ours: ours, theirs: theirs, label: "arm64 threads") >= 3)
    }

    /// What is no core gets one line naming it, status 1, and no dump.
    @Test func whatIsNoCoreIsOneLine() throws {
        let scratch = Fixtures.scratchDirectory("core2md-bad")
        let dump = scratch + "/out.dmp"
        for (input, reason) in [
            ("SampleCrashes/linux-c-sensors/crash.txt", "not an ELF file"),
            ("/nonexistent/core", "cannot open: No such file or directory"),
            (Paths.fixture("sensors-gcc-dwarf5"), "an ELF file, but not a core file")
        ] {
            let result = try Command.run(Paths.postmortem, ["core2md", "-o", dump, input])
            #expect(result.status == 1)
            #expect(result.errorLines == ["postmortem: \(input): \(reason)"])
            #expect(!FileManager.default.fileExists(atPath: dump))
        }
    }

    /// lldb-14 (Debian's), a second reader of the same dumps: it loads the modules from the paths the dump names and
    /// unwinds with their CFI. Every thread's frames equal its `thread backtrace all` (its inlined frames, which repeat
    /// an address, counted once), for the crashes whose stacks are all machine stacks (a Swift task's are followed
    /// here through its async contexts, by lldb through the executor).
    @Test(arguments: MinidumpTests.crashes.filter { $0.arguments != ["async"] })
    func aCoresDumpWalksAsLLDBWalksIt(_ crash: CrashingPrograms.Crash) throws {
        let lldb = try #require(Paths.executable(named: "lldb-14"), "lldb-14 is needed; make test installs it")
        let directory = try CrashingPrograms.directory.get()
        let core = try #require(
            try CrashingPrograms.kernelCore(of: crash, in: directory)
                ?? CrashingPrograms.gdbCore(of: crash, in: directory))
        let dump = try Self.convert(core)
        let limit = 200
        let ours = try Self.json(["symbolicate", "--json", "--no-cache", "--offline", "--max-frames", "\(limit)", dump])
        let result = try Command.run(
            lldb, ["-b", "-o", "target create --core \(dump)", "-o", "thread backtrace all -c \(limit * 2)"])
        var theirs: [[String]] = []
        for line in result.outputLines {
            if line.hasPrefix("* thread #") || line.hasPrefix("  thread #") {
                theirs.append([])
            } else if !theirs.isEmpty, !line.contains(" [inlined] "),
                let match = line.firstMatch(of: /frame #\d+: 0x0*([0-9a-f]+)/)
            {
                // (An inlined frame, marked so, repeats the address of the frame that holds it.)
                theirs[theirs.count - 1].append("0x" + match.1)
            }
        }
        #expect(!theirs.isEmpty, "lldb-14: \(result.standardOutput) \(result.standardError)")
        let ourThreads = Self.addresses(ours).values.map { Array($0.prefix(limit)) }
        let theirThreads = theirs.map { Array($0.prefix(limit)) }
        #expect(
            ourThreads.sorted { $0.lexicographicallyPrecedes($1) }
                == theirThreads.sorted { $0.lexicographicallyPrecedes($1) }, "\(crash)")
    }
}
