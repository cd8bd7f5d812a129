import Foundation
import TestSupport
import Testing

/// `postmortem symbolicate CORE` on cores of programs this test builds and crashes (C with threads and a shared
/// library at -O2 without frame pointers, a C++ exception through std::terminate, a fault inside a signal handler,
/// Swift traps on the main thread and another): every thread's frames equal eu-stack's address for address, and the
/// frames in the program's own code name what llvm-symbolizer names at the same address.
@Suite("Core files")
struct CoreFileTests {
    /// eu-stack's frames, by thread id (`eu-stack -q -n 1024 --core CORE -e EXE`). Where eu-stack gives up on a frame
    /// it could not place ("in <unknown>": a thread caught inside clone3, whose CFI ends there), that frame is left out:
    /// gdb gives `0x0000000000000000 in ?? ()` there, and the walk here stops and says why.
    /// Each frame as `0x…` with ` - 1` for a return address, as `eu-stack -a` marks frames that are not activations.
    static func euStack(core: String, executable: String) throws -> [Int: [String]] {
        try euStack(["--core", core, "-e", executable])
    }

    /// eu-stack's frames of what `arguments` name (a core, `-p PID`), as ``euStack(core:executable:)`` gives them.
    static func euStack(_ arguments: [String]) throws -> [Int: [String]] {
        let euStack = try #require(
            Paths.executable(named: "eu-stack"), "eu-stack (Debian's elfutils) is needed; make test installs it")
        let result = try Command.run(euStack, ["-q", "-a", "-n", "1024"] + arguments)
        var threads: [Int: [String]] = [:]
        var current: Int?
        for line in result.outputLines {
            if line.hasPrefix("TID "), let id = Int(line.dropFirst(4).prefix { $0.isNumber }) {
                current = id
                threads[id] = []
            } else if let current, line.hasPrefix("#"), let start = line.firstRange(of: "0x")?.upperBound,
                let address = UInt64(line[start...].prefix { $0.isHexDigit }, radix: 16)
            {
                threads[current, default: []].append(Self.frame(address, isReturnAddress: line.hasSuffix(" - 1")))
            }
        }
        for match in result.standardError.matches(of: /tid (\d+) at 0x([0-9a-f]+) in <unknown>/) {
            guard let id = Int(match.1), let failed = UInt64(match.2, radix: 16),
                threads[id]?.last == Self.frame(failed &+ 1, isReturnAddress: true)
            else { continue }
            threads[id]?.removeLast()
        }
        return threads
    }

    /// The report `postmortem symbolicate --json` gives of `core`.
    static func report(core: String, executable: String, extra: [String] = []) throws -> [String: Any] {
        let result = try Command.run(
            Paths.postmortem, ["symbolicate", "--json", "--no-cache", core, "-e", executable] + extra)
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    static func threads(_ report: [String: Any]) -> [[String: Any]] { report["threads"] as? [[String: Any]] ?? [] }

    static func frame(_ address: UInt64, isReturnAddress: Bool) -> String {
        "0x" + String(address, radix: 16) + (isReturnAddress ? " - 1" : "")
    }

    /// The thread's frames as ``euStack(core:executable:)`` writes them: a return address is one whose lookup address
    /// lies a byte before its offset in the image.
    static func addresses(_ thread: [String: Any]) -> [String] {
        (thread["frames"] as? [[String: Any]] ?? []).compactMap { frame in
            guard let address = (frame["address"] as? String).flatMap({ UInt64($0.dropFirst(2), radix: 16) }) else {
                return nil
            }
            let offset = (frame["imageOffset"] as? String).flatMap { UInt64($0.dropFirst(2), radix: 16) }
            let lookup = (frame["lookupAddress"] as? String).flatMap { UInt64($0.dropFirst(2), radix: 16) }
            return Self.frame(address, isReturnAddress: offset != nil && lookup.map { $0 &+ 1 } == offset)
        }
    }

    static func cores(of crash: CrashingPrograms.Crash) throws -> [(kind: String, path: String)] {
        let directory = try CrashingPrograms.directory.get()
        var cores: [(String, String)] = []
        if let kernel = try CrashingPrograms.kernelCore(of: crash, in: directory) { cores.append(("kernel", kernel)) }
        cores.append(
            (
                "gdb",
                try #require(try CrashingPrograms.gdbCore(of: crash, in: directory), "gdb wrote no core of \(crash)")
            ))
        return cores
    }

    @Test(arguments: CrashingPrograms.crashes)
    func everyThreadEqualsEuStack(_ crash: CrashingPrograms.Crash) throws {
        let executable = try CrashingPrograms.directory.get() + "/" + crash.program
        for (kind, core) in try Self.cores(of: crash) {
            let expected = try Self.euStack(core: core, executable: executable)
            let report = try Self.report(core: core, executable: executable)
            #expect(report["format"] as? String == "elf-core")
            let threads = Self.threads(report)
            #expect(threads.count == expected.count, "\(kind) core of \(crash): threads")
            #expect(
                threads.first?["crashed"] as? Bool == true, "\(kind) core of \(crash): the first thread took the signal"
            )
            for thread in threads {
                let id = try #require(thread["index"] as? Int)
                let ours = Self.addresses(thread)
                let theirs = expected[id] ?? []
                let frames = thread["frames"] as? [[String: Any]] ?? []
                let trusts = frames.map { $0["trust"] as? String }
                // A thread the crash caught in an assembly stub outside its CFI (the parent in clone3 after its
                // syscall): eu-stack gives up there; the walk here reads the return address as gdb does and goes on,
                // marking that frame `scan` (checked against gdb by aThreadCaughtInClone3WalksAsGDBWalksIt).
                let goesOnAsGDB =
                    ours.count > theirs.count && Array(ours.prefix(theirs.count)) == theirs
                    && trusts.count > theirs.count && trusts[theirs.count] == "scan"
                #expect(goesOnAsGDB || ours == theirs, "\(kind) core of \(crash), thread \(id)")
                #expect(frames.first?["trust"] as? String == "context")
                // The innermost frame's registers, as the core saved them: its program counter is frame 0's address.
                let registers = thread["registers"] as? [String: String] ?? [:]
                #expect(
                    registers["rip"] != nil && registers["rip"] == frames.first?["address"] as? String,
                    "\(kind) core of \(crash)")
                #expect(
                    trusts.indices.dropFirst().allSatisfy {
                        trusts[$0] == "cfi" || (goesOnAsGDB && $0 == theirs.count)
                    },
                    "\(kind) core of \(crash): found by CFI")
            }
            // Every walk reached its outermost frame or the frame limit, except a thread eu-stack could not finish either.
            let stopped = threads.filter { ($0["stopReason"] as? String).map { !$0.hasPrefix("cut at ") } ?? false }
                .compactMap { $0["index"] as? Int }
            #expect(
                stopped.allSatisfy { id in (expected[id]?.count ?? 0) <= 1 },
                "\(kind) core of \(crash): walks stopped early: \(stopped)")
        }
    }

    /// A process stopped in clone3 just after its syscall (gdb's `catch syscall clone3`), where glibc's assembly has no
    /// CFI: the parent's return address is the word at its stack pointer, and every thread of the core gdb writes then
    /// walks as gdb walks it (`bt` past main), the child's (whose return address is 0 there) as far as gdb's goes.
    @Test func aThreadCaughtInClone3WalksAsGDBWalksIt() throws {
        let directory = try CrashingPrograms.directory.get()
        let gdb = try #require(Paths.executable(named: "gdb"), "gdb is needed; make test installs it")
        let core = Fixtures.scratchDirectory("clone3-core") + "/core"
        let quiet = ["-batch", "-nx", "-ex", "set debuginfod enabled off"]
        // (As gdbCore runs it: with the signals the test process blocks unblocked, else gdb waits for the child forever.)
        _ = try Command.run(
            directory + "/with-default-signals",
            ["timeout", "120", gdb] + quiet + [
                "-ex", "catch syscall clone3", "-ex", "run", "-ex", "continue",
                "-ex", "generate-core-file \(core)", "-ex", "kill", directory + "/park"
            ])
        try #require(FileManager.default.fileExists(atPath: core), "gdb wrote no core of park stopped in clone3")
        let walked = try Command.run(
            gdb,
            quiet + [
                "-ex", "set backtrace past-main on",
                "-ex", "thread apply all bt -frame-info location-and-address", directory + "/park", core
            ])
        var theirs: [Int: [String]] = [:]
        var current: Int?
        for line in walked.outputLines {
            if let match = line.firstMatch(of: /^Thread \d+ \(Thread 0x[0-9a-f]+ \(LWP (\d+)\)\)/) {
                current = Int(match.1)
            } else if let current, let match = line.firstMatch(of: #/^#\d+ +0x0*([0-9a-f]+) in /#) {
                // (An inlined frame repeats the address of the frame that holds it.)
                if theirs[current]?.last != "0x" + match.1 { theirs[current, default: []].append("0x" + match.1) }
            }
        }
        let report = try Self.report(core: core, executable: directory + "/park")
        var ours: [Int: [String]] = [:]
        var caughtInClone3 = 0
        for thread in Self.threads(report) {
            let frames = thread["frames"] as? [[String: Any]] ?? []
            ours[thread["index"] as? Int ?? -1] = frames.compactMap { $0["address"] as? String }
            let names = frames.map { (($0["symbols"] as? [[String: Any]])?.last?["function"] as? String) ?? "" }
            if names.first == "clone3", names.contains("main") {
                caughtInClone3 += 1
                #expect(frames.dropFirst().first?["trust"] as? String == "scan")
            }
        }
        #expect(caughtInClone3 == 1, "\(walked.standardOutput)")
        #expect(ours.keys.sorted() == theirs.keys.sorted())
        for (id, frames) in theirs {
            // gdb's `0x0 in ?? ()` is the child's return address of 0, where the walk here stops.
            #expect(ours[id] == frames.filter { $0 != "0x0" }, "thread \(id)")
        }
    }

    /// The frames in the program's own binary name the inline chain llvm-symbolizer gives at their lookup address.
    @Test(arguments: CrashingPrograms.crashes)
    func programFramesEqualLLVMSymbolizer(_ crash: CrashingPrograms.Crash) throws {
        let directory = try CrashingPrograms.directory.get()
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let core = try #require(try Self.cores(of: crash).first).path
        let report = try Self.report(core: core, executable: directory + "/" + crash.program)
        var checked = 0
        for thread in Self.threads(report) {
            for frame in thread["frames"] as? [[String: Any]] ?? [] {
                guard let image = frame["image"] as? String, image == crash.program || image == "libchain.so",
                    let lookup = frame["lookupAddress"] as? String
                else { continue }
                let output = try Command.run(
                    symbolizer, ["--inlining", "--output-style=JSON", "-e", directory + "/" + image, lookup])
                let expected = try ChainParser.llvmSymbolizer(
                    output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
                let symbols = (frame["symbols"] as? [[String: Any]] ?? []).map { symbol in
                    ComparableFrame(
                        function: symbol["function"] as? String, file: symbol["file"] as? String,
                        line: symbol["line"] as? Int ?? 0, column: symbol["column"] as? Int ?? 0)
                }
                #expect(symbols.map(\.file) == expected.map(\.file), "\(crash) at \(lookup)")
                #expect(symbols.map(\.line) == expected.map(\.line), "\(crash) at \(lookup)")
                #expect(symbols.map(\.column) == expected.map(\.column), "\(crash) at \(lookup)")
                checked += 1
            }
        }
        #expect(checked >= 2, "\(crash): frames in the program checked")
    }

    /// A crash in a Swift async function: above its frame the walk follows the task's async contexts, and the crashing
    /// thread's frames equal the Swift runtime's own report of the same crash, `[async]` frames included (the report
    /// and the core come from one run where the kernel writes cores; else from two runs without address randomization,
    /// the core from gdb).
    @Test func swiftAsyncFramesEqualTheRuntimesReport() throws {
        let directory = try CrashingPrograms.directory.get()
        let scratch = Fixtures.scratchDirectory("swift-async")
        let pattern = (try? String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8)) ?? ""
        let run = try Command.run(
            "/bin/sh",
            [
                "-c",
                "ulimit -c unlimited; exec setarch -R '\(directory)/with-default-signals' '\(directory)/crashes' async"
            ],
            currentDirectory: URL(fileURLWithPath: scratch),
            environment: ["SWIFT_BACKTRACE": "enable=yes,interactive=no,color=no"])
        var core = scratch + "/core"
        if !pattern.hasPrefix("core") || !FileManager.default.fileExists(atPath: core) {
            core = try #require(
                try CrashingPrograms.gdbCore(
                    of: CrashingPrograms.Crash(program: "crashes", arguments: ["async"]), in: directory))
        }
        // The runtime's report: the crashed thread's frames, `N [ra] [async] 0x… in …`.
        var expected: [String] = []
        var inCrashedThread = false
        for line in run.errorLines {
            if line.hasPrefix("Thread "), line.hasSuffix(" crashed:") { inCrashedThread = true; continue }
            guard inCrashedThread else { continue }
            if line.hasPrefix("Thread ") || line.hasPrefix("Registers") { break }
            let words = line.split(separator: " ")
            guard words.count >= 2, Int(words[0]) != nil, let hex = words.first(where: { $0.hasPrefix("0x") }),
                let address = UInt64(hex.dropFirst(2), radix: 16)
            else { continue }
            expected.append("0x" + String(address, radix: 16) + (words.contains("[async]") ? " async" : ""))
        }
        #expect(expected.filter { $0.hasSuffix(" async") }.count >= 2, "the runtime's report: \(run.standardError)")

        let report = try Self.report(core: core, executable: directory + "/crashes")
        let crashed = try #require(Self.threads(report).first { $0["crashed"] as? Bool == true })
        let ours = (crashed["frames"] as? [[String: Any]] ?? []).compactMap { frame -> String? in
            guard let address = frame["address"] as? String else { return nil }
            return address + (frame["trust"] as? String == "async" ? " async" : "")
        }
        #expect(ours == expected)
    }

    /// The report of a core, saved with `--parse-only` (no binary looked for), reads back as a log: symbolicated
    /// later it gives the frames, images and symbols the core itself gives.
    @Test func aSavedReportIsSymbolicatedLater() throws {
        let crash = CrashingPrograms.Crash(program: "handler")
        let directory = try CrashingPrograms.directory.get()
        let core = try #require(try Self.cores(of: crash).first).path
        let saved = Fixtures.scratchDirectory("saved-report") + "/report.txt"
        let parsed = try Command.run(Paths.postmortem, ["symbolicate", "--parse-only", core, "--output", saved])
        #expect(parsed.status == 0, "\(parsed.standardError)")
        let later = try Self.report(core: saved, executable: directory + "/handler")
        let direct = try Self.report(core: core, executable: directory + "/handler")
        #expect(later["format"] as? String == "elf-core")
        func frames(_ report: [String: Any]) -> [String] {
            Self.threads(report).flatMap { thread in
                (thread["frames"] as? [[String: Any]] ?? []).map { frame in
                    let names = (frame["symbols"] as? [[String: Any]] ?? []).compactMap { $0["function"] as? String }
                    return [
                        frame["address"] as? String, frame["image"] as? String, frame["lookupAddress"] as? String,
                        frame["trust"] as? String
                    ].map { $0 ?? "-" }.joined(separator: " ") + " " + names.joined(separator: " < ")
                }
            }
        }
        #expect(frames(later) == frames(direct))
        #expect(frames(direct).contains { $0.contains("on_signal") })
        let images = { (report: [String: Any]) in
            (report["images"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "") \($0["id"] ?? "")" }
        }
        #expect(images(later) == images(direct))
    }

    /// A core posted to the server (`POST /symbolicate`) is answered as `symbolicate` answers it, in JSON and text.
    @Test func aPostedCoreIsAnsweredAsSymbolicateAnswers() throws {
        let crash = CrashingPrograms.Crash(program: "handler")
        let directory = try CrashingPrograms.directory.get()
        let core = try #require(try Self.cores(of: crash).first).path
        let scratch = Fixtures.scratchDirectory("serve-core")
        let server = try ServerProcess(
            arguments: ["-d", directory], environment: ["POSTMORTEM_CACHE_DIR": scratch + "/cache"],
            scratch: scratch)
        let json = try HTTP.send("POST", server.url + "/symbolicate", bodyFile: core)
        let text = try HTTP.send(
            "POST", server.url + "/symbolicate", bodyFile: core, extra: ["-H", "Accept: text/plain"])
        let cli = try Command.run(Paths.postmortem, ["symbolicate", "--json", "--no-cache", "-d", directory, core])
        let cliText = try Command.run(
            Paths.postmortem, ["symbolicate", "--no-cache", "--color", "never", "-d", directory, core])
        #expect(json.status == 200)
        #expect(json.body == cli.standardOutput)
        #expect(text.status == 200)
        #expect(text.body == cliText.standardOutput)
        #expect(json.body.contains("\"function\": \"on_signal\""))
        let truncated = scratch + "/cut.core"
        try Data(try Data(contentsOf: URL(fileURLWithPath: core)).prefix(200)).write(
            to: URL(fileURLWithPath: truncated))
        let refused = try HTTP.send("POST", server.url + "/symbolicate", bodyFile: truncated)
        #expect(refused.status == 400)
    }

    /// A stack overflow: hundreds of thousands of frames, cut at --max-frames with the cut said, equal to eu-stack's as
    /// far as both go.
    @Test func stackOverflowIsCut() throws {
        let crash = CrashingPrograms.Crash(program: "overflow")
        let executable = try CrashingPrograms.directory.get() + "/overflow"
        let core = try #require(try Self.cores(of: crash).first).path
        let report = try Self.report(core: core, executable: executable, extra: ["--max-frames", "300"])
        let thread = try #require(Self.threads(report).first)
        let addresses = Self.addresses(thread)
        #expect(addresses.count == 300)
        #expect(thread["stopReason"] as? String == "cut at 300 frames (the frame limit)")
        let expected = try Self.euStack(core: core, executable: executable)
        #expect(Array(expected.values.first?.prefix(300) ?? []) == addresses)
    }
}
