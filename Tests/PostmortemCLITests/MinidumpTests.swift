import Foundation
import TestSupport
import Testing

/// `postmortem symbolicate DUMP` on minidumps Crashpad's handler writes of programs this test builds and crashes (a
/// fault in a shared library with threads waiting, a C++ exception through std::terminate, Swift traps on the main
/// thread and another, a Swift stack overflow, a Swift async function's trap, whose task's contexts on the heap a
/// Crashpad dump does not hold, so the walk goes on by the machine stack to the executor): every frame that minidump-stackwalk 0.25 finds from the context or by
/// call-frame information, with dump_syms's symbol files of the programs, is found here the same way, at the same
/// module offset, in the same function and line.
@Suite("Minidumps")
struct MinidumpTests {
    static let crashes: [CrashingPrograms.Crash] = [
        CrashingPrograms.Crash(program: "threads"), CrashingPrograms.Crash(program: "terminate"),
        CrashingPrograms.Crash(program: "crashes", arguments: ["fatal"]),
        CrashingPrograms.Crash(program: "crashes", arguments: ["thread"]),
        CrashingPrograms.Crash(program: "crashes", arguments: ["overflow"]),
        CrashingPrograms.Crash(program: "crashes", arguments: ["async"])
    ]

    /// The modules built here, with DWARF in the symbol files dump_syms writes of them.
    static let programs: Set<String> = ["threads", "libchain.so", "terminate", "crashes", "scan", "libnocfi.so"]

    /// The report `postmortem symbolicate --json` gives of `dump`.
    static func report(dump: String, extra: [String] = []) throws -> [String: Any] {
        let result = try Command.run(Paths.postmortem, ["symbolicate", "--json", "--no-cache", dump] + extra)
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    static func hex(_ value: Any?) -> UInt64? {
        (value as? String).flatMap { UInt64($0.hasPrefix("0x") ? String($0.dropFirst(2)) : $0, radix: 16) }
    }

    /// A function's name without what the two tools write differently: the suffix GCC gives a clone
    /// (`compute.constprop.0`: dump_syms names the DWARF subprogram, llvm-symbolizer and Postmortem the clone's
    /// symbol) and the parameter list (dump_syms demangles Swift with types, `descend(Int)`; Postmortem with labels,
    /// as the Swift runtime's backtracer does, `descend(_:)`).
    static func baseName(_ name: String) -> String {
        var name = Substring(name.prefix { $0 != "(" })
        // dump_syms shortens Swift closures' names to `closure #1 `.
        if let range = name.range(of: " in ") { name = name[..<range.lowerBound] }
        name = Substring(name.trimmingCharacters(in: .whitespaces))
        for marker in [".constprop.", ".isra.", ".part.", ".cold"] {
            if let range = name.range(of: marker) { name = name[..<range.lowerBound] }
        }
        return String(name)
    }

    /// Compares every thread's frames that minidump-stackwalk found from the context or by CFI with ours at the same
    /// index: trust, module, module offset, and in the programs built here the function and line; how many were compared.
    static func compareFrames(
        ours: [String: Any], theirs: [String: Any], label crash: String,
        trusts: Set<String> = ["context", "cfi"]
    ) -> Int {
        let theirThreads = theirs["threads"] as? [[String: Any]] ?? []
        let ourThreads = ours["threads"] as? [[String: Any]] ?? []
        var compared = 0
        for their in theirThreads {
            let id = their["thread_id"] as? Int
            let ourFrames = ourThreads.first { $0["index"] as? Int == id }?["frames"] as? [[String: Any]] ?? []
            let theirFrames = (their["frames"] as? [[String: Any]] ?? []).prefix {
                trusts.contains($0["trust"] as? String ?? "")
            }
            // Postmortem cuts a walk at --max-frames (1,024 unless given); minidump-stackwalk has no limit (a stack
            // overflow's whole stack).
            // (A task's stack of async frames has its own length.)
            let followsTask = ourFrames.contains { $0["trust"] as? String == "async" }
            #expect(
                followsTask || ourFrames.count >= min(theirFrames.count, 1_024),
                "thread \(id ?? -1): \(ourFrames.count) frames here, \(theirFrames.count) there")
            for (number, theirFrame) in theirFrames.enumerated() where number < ourFrames.count {
                let ourFrame = ourFrames[number]
                // Above a Swift async frame the stack here is the task's (its contexts), minidump-stackwalk's the
                // executor's.
                if ourFrame["trust"] as? String == "async" { break }
                let place = "\(crash) thread \(id ?? -1) frame \(number)"
                #expect(ourFrame["trust"] as? String == theirFrame["trust"] as? String, "\(place)")
                #expect(ourFrame["image"] as? String == theirFrame["module"] as? String, "\(place)")
                // The instruction looked up (a return address less one), in the process: the module offsets of the two
                // differ for a program not built position-independent (ours is the file address, theirs from the load address).
                // minidump-stackwalk takes a return address's call to be 1 byte before it on x86-64, 4 on ARM64.
                let isReturnAddress =
                    Self.hex(ourFrame["lookupAddress"]).map { $0 &+ 1 } == Self.hex(ourFrame["imageOffset"])
                let callSize: UInt64 =
                    (theirs["system_info"] as? [String: Any])?["cpu_arch"] as? String == "arm64" ? 4 : 1
                #expect(
                    Self.hex(ourFrame["address"]).map { isReturnAddress ? $0 &- callSize : $0 }
                        == Self.hex(theirFrame["offset"]), "\(place)")
                let symbols = ourFrame["symbols"] as? [[String: Any]] ?? []
                // Names and lines where dump_syms read DWARF (a file and line): in the programs built here. The system
                // libraries' symbol files hold only their exported symbols (dump_syms reads no separate debug file), of
                // which it may pick another alias at the same address, where Postmortem reads libc6-dbg's DWARF.
                if let function = theirFrame["function"] as? String, theirFrame["file"] as? String != nil,
                    Self.programs.contains(theirFrame["module"] as? String ?? ""), let outer = symbols.last
                {
                    #expect(Self.baseName(outer["function"] as? String ?? "") == Self.baseName(function), "\(place)")
                    if let line = theirFrame["line"] as? Int { #expect(outer["line"] as? Int == line, "\(place)") }
                    let theirInlines = (theirFrame["inlines"] as? [[String: Any]] ?? []).compactMap {
                        $0["line"] as? Int
                    }
                    #expect(
                        symbols.dropLast().compactMap { $0["line"] as? Int } == theirInlines, "\(place) inlined frames")
                }
                compared += 1
            }
        }
        return compared
    }

    @Test(arguments: crashes)
    func framesEqualMinidumpStackwalk(_ crash: CrashingPrograms.Crash) throws {
        let directory = try CrashingPrograms.directory.get()
        let dump = try CrashpadDumps.dump(of: crash, in: directory)
        let store = try CrashpadDumps.symbolStore.get()
        let theirs = try CrashpadDumps.stackwalk(dump, symbols: store)
        let ours = try Self.report(dump: dump)
        #expect(ours["format"] as? String == "minidump")

        let theirThreads = theirs["threads"] as? [[String: Any]] ?? []
        let ourThreads = ours["threads"] as? [[String: Any]] ?? []
        #expect(
            Set(ourThreads.compactMap { $0["index"] as? Int })
                == Set(theirThreads.compactMap { $0["thread_id"] as? Int }))
        // The crashing thread comes first, and is the one minidump-stackwalk names.
        let crashInfo = theirs["crash_info"] as? [String: Any]
        let crashingIndex = try #require(crashInfo?["crashing_thread"] as? Int)
        #expect(ourThreads.first?["index"] as? Int == theirThreads[crashingIndex]["thread_id"] as? Int)
        #expect(ourThreads.first?["crashed"] as? Bool == true)
        let exception = ours["exception"] as? [String: Any]
        #expect(
            [exception?["type"] as? String, exception?["message"] as? String].compactMap { $0 }.joined(separator: " / ")
                == crashInfo?["type"] as? String)

        let compared = Self.compareFrames(ours: ours, theirs: theirs, label: "\(crash)")
        // The crashing thread has at least its context frame and one found by call-frame information; but of a stack
        // that overflowed, Crashpad keeps the memory of the alternate signal stack the handler ran on, not the frames
        // above the fault, and both walks stop after the first frame.
        #expect(compared >= (crash.arguments == ["overflow"] ? 1 : 2), "\(crash): only \(compared) frames compared")
    }

    /// Dumps other people's Breakpad and Crashpad wrote (rust-minidump's test data: Linux, macOS, Windows x86-64 and
    /// x86), whose binaries are not here: the crash's reason, the threads, each thread's context frame and the
    /// modules' ids equal minidump-stackwalk's.
    static let foreignDumps = [
        "linux-mini", "pipeline-inlines-macos-segv", "simple-crashpad", "test", "invalid-parameter"
    ]

    static func foreignDump(_ name: String) -> String {
        Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/minidumps/rust-minidump/\(name).dmp").path
    }

    @Test(arguments: foreignDumps)
    func foreignDumpsReadAsMinidumpStackwalkReadsThem(_ name: String) throws {
        let dump = Self.foreignDump(name)
        let theirs = try CrashpadDumps.stackwalk(dump, symbols: Fixtures.scratchDirectory("no-symbols"))
        let result = try Command.run(Paths.postmortem, ["symbolicate", "--json", "--offline", "--no-cache", dump])
        let ours = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            "\(result.standardError)")
        #expect(ours["format"] as? String == "minidump")
        let exception = ours["exception"] as? [String: Any]
        let crashInfo = theirs["crash_info"] as? [String: Any]
        #expect(
            [exception?["type"] as? String, exception?["message"] as? String].compactMap { $0 }.joined(separator: " / ")
                == crashInfo?["type"] as? String)

        let theirThreads = theirs["threads"] as? [[String: Any]] ?? []
        let ourThreads = ours["threads"] as? [[String: Any]] ?? []
        #expect(
            ourThreads.compactMap { $0["index"] as? Int }.sorted()
                == theirThreads.compactMap { $0["thread_id"] as? Int }.sorted())
        let walked = ["amd64", "x86"].contains((theirs["system_info"] as? [String: Any])?["cpu_arch"] as? String)
        for their in theirThreads where walked {
            let ourFrames =
                ourThreads.first { $0["index"] as? Int == their["thread_id"] as? Int }?["frames"] as? [[String: Any]]
                ?? []
            let theirFirst = (their["frames"] as? [[String: Any]])?.first
            #expect(
                Self.hex(ourFrames.first?["address"]) == Self.hex(theirFirst?["offset"]),
                "thread \(their["thread_id"] ?? "?")")
            #expect(ourFrames.first?["trust"] as? String == theirFirst?["trust"] as? String)
        }

        // Every module, by its load address: the same file name, and for ELF the same code id (the build-id).
        let theirModules = theirs["modules"] as? [[String: Any]] ?? []
        let ourImages = ours["images"] as? [[String: Any]] ?? []
        #expect(ourImages.count == theirModules.count)
        for module in theirModules {
            let image = ourImages.first { Self.hex($0["loadAddress"]) == Self.hex(module["base_addr"]) }
            #expect(image?["name"] as? String == module["filename"] as? String, "\(module["filename"] ?? "?")")
            if name == "linux-mini" {
                #expect(image?["id"] as? String == module["code_id"] as? String, "\(module["filename"] ?? "?")")
            }
        }
    }

    /// A 32-bit x86 dump (Windows, Breakpad's writer; its modules' binaries are not here): `--stackwalk-json` gives
    /// the crash address Windows records for an access violation (the address written, not the instruction's), and
    /// every frame of the crashing thread as minidump-stackwalk walks it (the context, then frame pointers: ebp
    /// chains), offsets and module offsets in 8 digits, as it writes a 32-bit process's.
    @Test func aThirtyTwoBitWindowsDumpIsWalkedAsMinidumpStackwalkWalksIt() throws {
        let dump = Self.foreignDump("test")
        let theirs = try CrashpadDumps.stackwalk(dump, symbols: Fixtures.scratchDirectory("no-symbols"))
        let result = try Command.run(
            Paths.postmortem, ["symbolicate", "--stackwalk-json", "--offline", "--no-cache", dump])
        let ours = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            "\(result.standardError)")
        let ourCrash = ours["crash_info"] as? [String: Any]
        let theirCrash = theirs["crash_info"] as? [String: Any]
        #expect(ourCrash?["address"] as? String == theirCrash?["address"] as? String)
        #expect(ourCrash?["type"] as? String == theirCrash?["type"] as? String)
        func frames(_ document: [String: Any]) -> [[String?]] {
            let thread = document["crashing_thread"] as? [String: Any]
            return (thread?["frames"] as? [[String: Any]] ?? []).map { frame in
                ["offset", "module_offset", "trust", "module"].map { frame[$0] as? String }
            }
        }
        let theirFrames = frames(theirs)
        try #require(theirFrames.count >= 3, "minidump-stackwalk walked \(theirFrames.count) frames")
        #expect(frames(ours) == theirFrames)
        let bases = { (document: [String: Any]) in
            Set((document["modules"] as? [[String: Any]] ?? []).compactMap { $0["base_addr"] as? String })
        }
        #expect(bases(ours) == bases(theirs))
    }

    /// A 32-bit ARM dump (`MDRawContextARM`: r0–r15 after the flags; written here, as no dump of one is at hand):
    /// the crashing thread's registers equal lldb-14's reading of the same dump, register for register, its first
    /// frame is the program counter (trust `context`), and the walk says why it stops (no module holds the address;
    /// frame pointers are not followed on 32-bit ARM).
    @Test func aThirtyTwoBitARMContextReadsAsLLDBReadsIt() throws {
        let lldb = try #require(Paths.executable(named: "lldb-14"), "lldb-14 is needed; make test installs it")
        let registers: [UInt32] =
            (0..<13).map { 0x1000_0000 &+ UInt32($0) &* 0x0101_0123 } + [
                0x7ff0_f000, 0x0001_0555, 0x0001_0444
            ]
        let dump = Fixtures.scratchDirectory("arm-minidump") + "/arm.dmp"
        try Data(Self.armDump(threadID: 4242, registers: registers)).write(to: URL(fileURLWithPath: dump))

        let result = try Command.run(Paths.postmortem, ["symbolicate", "--json", "--offline", "--no-cache", dump])
        let ours = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            "\(result.standardError)")
        let thread = try #require((ours["threads"] as? [[String: Any]])?.first)
        let ourNames = (0..<13).map { $0 == 11 ? "fp" : $0 == 12 ? "ip" : "r\($0)" } + ["sp", "lr", "pc"]
        let ourValues = ourNames.map { (thread["registers"] as? [String: String])?[$0] }

        let theirs = try Command.run(lldb, ["-b", "-o", "target create --core \(dump)", "-o", "register read"])
        // "        r0 = 0x10000000", r11 as fp, then sp lr pc, in that order, then cpsr.
        let lldbNames = (0..<11).map { "r\($0)" } + ["fp", "r12", "sp", "lr", "pc"]
        var lldbValues: [String: String] = [:]
        for line in theirs.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, fields[1] == "=", lldbNames.contains(String(fields[0])),
                let value = UInt64(fields[2].dropFirst(2), radix: 16)
            {
                lldbValues[String(fields[0])] = "0x" + String(value, radix: 16)
            }
        }
        try #require(lldbValues.count == 16, "lldb-14 read: \(theirs.standardOutput) \(theirs.standardError)")
        #expect(ourValues == lldbNames.map { lldbValues[$0] })
        let frames = thread["frames"] as? [[String: Any]] ?? []
        #expect(frames.count == 1)
        #expect(frames.first?["address"] as? String == lldbValues["pc"])
        #expect(frames.first?["trust"] as? String == "context")
        #expect((thread["stopReason"] as? String)?.contains("not followed on 32-bit ARM") == true)
    }

    /// A Linux minidump of one 32-bit ARM thread that took a SIGSEGV: system information, the thread list (its
    /// context and 64 bytes of stack), the exception and an empty module list.
    static func armDump(threadID: UInt32, registers: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        let directory = 32, streams = 4
        var offset = directory + streams * 12
        let systemInfo = offset
        offset += 56
        let context = offset
        offset += 368
        let stack = offset
        offset += 64
        let threadList = offset
        offset += 4 + 48
        let exception = offset
        offset += 168
        let moduleList = offset
        u32(0x504d_444d); u32(0xa793); u32(UInt32(streams)); u32(UInt32(directory)); u32(0); u32(0); u64(0)
        for (type, size, rva) in [(7, 56, systemInfo), (3, 52, threadList), (6, 168, exception), (4, 4, moduleList)] {
            u32(UInt32(type)); u32(UInt32(size)); u32(UInt32(rva))
        }
        // MINIDUMP_SYSTEM_INFO: ARM (5), Linux (0x8201).
        u16(5); u16(7); u16(0); bytes += [1, 1]; u32(5); u32(10); u32(0); u32(0x8201); u32(0); u16(0); u16(0)
        bytes += [UInt8](repeating: 0, count: 24)
        u32(0x4000_0002)
        registers.forEach(u32)
        u32(0x6000_0010)
        bytes += [UInt8](repeating: 0, count: 296)
        bytes += (0..<64).map { UInt8($0) }
        u32(1); u32(threadID); u32(0); u32(0); u32(0); u64(0)
        u64(UInt64(registers[13])); u32(64); u32(UInt32(stack)); u32(368); u32(UInt32(context))
        // The exception: SIGSEGV (11), SEGV_MAPERR (1), at the program counter; the same context.
        u32(threadID); u32(0); u32(11); u32(1); u64(0); u64(UInt64(registers[15])); u32(0); u32(0)
        bytes += [UInt8](repeating: 0, count: 15 * 8)
        u32(368); u32(UInt32(context))
        u32(0)
        return bytes
    }

    /// Damaged dumps: each stream that does not fit is named in one line, what can be read is read, and nothing crashes.
    @Test(arguments: ["invalid-range", "invalid-record-count"])
    func damagedDumpsSayWhatIsWrong(_ name: String) throws {
        let result = try Command.run(
            Paths.postmortem, ["symbolicate", "--offline", "--no-cache", Self.foreignDump(name)])
        #expect(result.status == 0 || result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("lies outside the file; it is not read"))
        #expect(result.standardOutput.hasPrefix("Minidump of "))
    }

    /// `--stackwalk-json` writes minidump-stackwalk's own document: field by field equal on the same dump (names
    /// aside: the two demangle and name clones differently), so that a pipeline reading it can take either.
    @Test(arguments: crashes)
    func stackwalkJSONEqualsMinidumpStackwalks(_ crash: CrashingPrograms.Crash) throws {
        let directory = try CrashingPrograms.directory.get()
        let dump = try CrashpadDumps.dump(of: crash, in: directory)
        let theirs = try CrashpadDumps.stackwalk(dump, symbols: try CrashpadDumps.symbolStore.get())
        let result = try Command.run(Paths.postmortem, ["symbolicate", "--stackwalk-json", "--no-cache", dump])
        #expect(result.status == 0, "\(result.standardError)")
        let ours = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])

        func field(_ document: [String: Any], _ path: String...) -> String? {
            var value: Any? = document
            for key in path { value = (value as? [String: Any])?[key] }
            return value.map { "\($0)" }
        }
        for path in [
            ["crash_info", "type"], ["crash_info", "address"], ["crash_info", "crashing_thread"], ["system_info", "os"],
            ["system_info", "os_ver"], ["system_info", "cpu_arch"], ["system_info", "cpu_count"], ["pid"],
            ["thread_count"],
            ["crashing_thread", "thread_id"], ["crashing_thread", "threads_index"]
        ] {
            #expect(
                field(ours, path[0], path.count > 1 ? path[1] : "") ?? field(ours, path[0]) == field(
                    theirs, path[0], path.count > 1 ? path[1] : "") ?? field(theirs, path[0]),
                "\(crash): \(path.joined(separator: "."))")
        }

        let theirModules = theirs["modules"] as? [[String: Any]] ?? []
        let ourModules = ours["modules"] as? [[String: Any]] ?? []
        #expect(
            Set(ourModules.compactMap { $0["base_addr"] as? String })
                == Set(theirModules.compactMap { $0["base_addr"] as? String }))
        for module in theirModules {
            let our = ourModules.first { $0["base_addr"] as? String == module["base_addr"] as? String } ?? [:]
            for key in ["end_addr", "filename", "code_id", "debug_file", "debug_id"] {
                #expect(
                    our[key] as? String == module[key] as? String,
                    "\(crash): module \(module["filename"] ?? "?") \(key)")
            }
        }

        let theirThreads = theirs["threads"] as? [[String: Any]] ?? []
        let ourThreads = ours["threads"] as? [[String: Any]] ?? []
        #expect(
            ourThreads.map { $0["thread_id"] as? Int } == theirThreads.map { $0["thread_id"] as? Int },
            "\(crash): threads in the dump's order")
        for (our, their) in zip(ourThreads, theirThreads) {
            #expect(our["thread_name"] as? String == their["thread_name"] as? String)
            let ourFrames = our["frames"] as? [[String: Any]] ?? []
            let theirFrames = (their["frames"] as? [[String: Any]] ?? []).prefix {
                ["context", "cfi"].contains($0["trust"] as? String)
            }
            for (number, theirFrame) in theirFrames.enumerated() where number < ourFrames.count {
                let ourFrame = ourFrames[number]
                let place = "\(crash) thread \(their["thread_id"] ?? "?") frame \(number)"
                for key in ["frame", "module", "module_offset", "offset", "trust"] {
                    #expect(ourFrame[key].map { "\($0)" } == theirFrame[key].map { "\($0)" }, "\(place): \(key)")
                }
                guard Self.programs.contains(theirFrame["module"] as? String ?? "") else { continue }
                for key in ["function_offset", "file", "line", "missing_symbols"] {
                    #expect(ourFrame[key].map { "\($0)" } == theirFrame[key].map { "\($0)" }, "\(place): \(key)")
                }
                let inlineLines = { (frame: [String: Any]) in
                    (frame["inlines"] as? [[String: Any]] ?? []).map { "\($0["file"] ?? "")\($0["line"] ?? "")" }
                }
                #expect(inlineLines(ourFrame) == inlineLines(theirFrame), "\(place): inlines")
            }
        }
    }

    /// A dump uploaded to the server as Crashpad uploads it (`POST /minidump`, multipart with the dump in
    /// `upload_file_minidump`) is answered as `symbolicate --json` answers it, with the other fields as annotations;
    /// posted bare to `POST /symbolicate`, as `symbolicate` answers it; a form without a dump gets 400.
    @Test func anUploadedDumpIsAnsweredAsSymbolicateAnswers() throws {
        let directory = try CrashingPrograms.directory.get()
        let dump = try CrashpadDumps.dump(of: CrashingPrograms.Crash(program: "threads"), in: directory)
        let scratch = Fixtures.scratchDirectory("serve-minidump")
        let server = try ServerProcess(
            arguments: ["-d", directory], environment: ["POSTMORTEM_CACHE_DIR": scratch + "/cache"],
            scratch: scratch)
        let cli = try Command.run(Paths.postmortem, ["symbolicate", "--json", "--no-cache", "-d", directory, dump])
        let cliReport = try #require(
            try JSONSerialization.jsonObject(with: Data(cli.standardOutput.utf8)) as? [String: Any])

        let upload = try HTTP.send(
            "POST", server.url + "/minidump",
            extra: ["-F", "upload_file_minidump=@\(dump)", "-F", "prod=Threads", "-F", "ver=1.0"])
        #expect(upload.status == 200, "\(upload.body)")
        var answer = try #require(try JSONSerialization.jsonObject(with: Data(upload.body.utf8)) as? [String: Any])
        #expect(answer["annotations"] as? [String: String] == ["prod": "Threads", "ver": "1.0"])
        answer["annotations"] = nil
        #expect(NSDictionary(dictionary: answer) == NSDictionary(dictionary: cliReport))
        #expect(upload.body.contains("\"function\": \"sum_chain\""))

        let bare = try HTTP.send("POST", server.url + "/symbolicate", bodyFile: dump)
        #expect(bare.status == 200)
        #expect(bare.body == cli.standardOutput)

        let noDump = try HTTP.send("POST", server.url + "/minidump", extra: ["-F", "prod=Threads"])
        #expect(noDump.status == 400)
        #expect(noDump.body.contains("upload_file_minidump"))
        let notMultipart = try HTTP.send("POST", server.url + "/minidump", bodyFile: dump)
        #expect(notMultipart.status == 400)
    }

    /// `group` signs a minidump as it signs the same crash's core: the same frames, the same signature.
    @Test func groupSignsADumpAsItsCore() throws {
        let crash = CrashingPrograms.Crash(program: "threads")
        let directory = try CrashingPrograms.directory.get()
        let dump = try CrashpadDumps.dump(of: crash, in: directory)
        let core = try #require(try CrashingPrograms.gdbCore(of: crash, in: directory))
        let signature = { (path: String) throws -> String in
            let result = try Command.run(Paths.postmortem, ["group", "--json", "--no-cache", "-d", directory, path])
            #expect(result.status == 0, "\(result.standardError)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let groups = object["groups"] as? [[String: Any]] ?? []
            return try #require(groups.first?["signature"] as? String, "\(object)")
        }
        let fromDump = try signature(dump)
        #expect(fromDump.contains("sum_chain"))
        #expect(fromDump == (try signature(core)))
    }

    /// A fault in a library without call-frame information (and without frame pointers). In a function that keeps no
    /// frame, the return address into main is the word at the stack pointer, read as gdb reads it without `--scan`,
    /// marked `scan`, and the walk goes on by CFI. In one that keeps locals there, the walk stops and says why; with
    /// `--scan` the return address is found further up, checked to follow a call. minidump-stackwalk finds the same
    /// frames by scanning.
    @Test(arguments: [[], ["framed"]])
    func scanningFindsTheCallerOfCodeWithoutCFI(_ arguments: [String]) throws {
        let directory = try CrashingPrograms.directory.get()
        let dump = try CrashpadDumps.dump(
            of: CrashingPrograms.Crash(program: "scan", arguments: arguments), in: directory)
        let plain = try Self.report(dump: dump)
        let plainThread = try #require((plain["threads"] as? [[String: Any]])?.first)
        let keepsAFrame = !arguments.isEmpty
        if keepsAFrame {
            #expect((plainThread["frames"] as? [[String: Any]])?.count == 1)
            #expect((plainThread["stopReason"] as? String)?.contains("no call-frame information") == true)
        }

        let scanned = keepsAFrame ? try Self.report(dump: dump, extra: ["--scan"]) : plain
        let frames = try #require((scanned["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]])
        #expect(frames.map { $0["trust"] as? String }.prefix(3) == ["context", "scan", "cfi"])
        #expect(
            (frames.first?["symbols"] as? [[String: Any]])?.last?["function"] as? String
                == (keepsAFrame ? "poke_after_fill" : "poke"))
        #expect((frames.dropFirst().first?["symbols"] as? [[String: Any]])?.last?["function"] as? String == "main")
        let theirs = try CrashpadDumps.stackwalk(
            dump, symbols: try CrashpadDumps.symbolStore(of: [directory + "/scan", directory + "/libnocfi.so"]))
        let theirFrames = ((theirs["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]]) ?? []
        #expect(theirFrames.dropFirst().first?["trust"] as? String == "scan")
        #expect(
            Self.compareFrames(ours: scanned, theirs: theirs, label: "scan \(arguments)", trusts: ["context", "scan"])
                == 2)
    }

    /// The program rebuilt after the crash (another build-id at the path the dump names): its frames keep their module
    /// and offset, the report names it with its debug id and why the file there was refused; the original binary
    /// given below `-d` is found by its build-id and the frames are named again.
    @Test func aRebuiltBinaryIsRefusedAndTheOriginalFoundBelowD() throws {
        let sources = CrashingPrograms.sources
        let directory = try CrashingPrograms.directory.get()
        let scratch = Fixtures.scratchDirectory("rebuilt")
        let build = { (flags: [String]) throws in
            let result = try Command.run(
                "/usr/bin/env",
                ["gcc", "-O2", "-g", "-pthread"] + flags + [
                    "-o", "threads", "\(sources)/threads.c",
                    "\(sources)/chain.c"
                ], currentDirectory: URL(fileURLWithPath: scratch))
            try #require(result.status == 0, "\(result.standardError)")
        }
        try build([])
        let dump = try CrashpadDumps.dump(
            of: CrashingPrograms.Crash(program: "threads"), in: scratch, preloadFrom: directory)
        let kept = Fixtures.scratchDirectory("original")
        try FileManager.default.copyItem(atPath: scratch + "/threads", toPath: kept + "/threads")
        try build(["-DREBUILT=1", "-fno-omit-frame-pointer"])

        let refused = try Command.run(Paths.postmortem, ["symbolicate", "--offline", "--no-cache", dump])
        #expect(refused.status == 0, "\(refused.standardError)")
        let line = try #require(
            refused.standardOutput.split(separator: "\n").first {
                $0.hasPrefix("threads ") && $0.contains("is not the recorded")
            })
        #expect(line.contains(scratch + "/threads"))
        #expect(refused.standardOutput.contains(" threads + 0x"))
        let found = try Self.report(dump: dump, extra: ["--offline", "-d", kept])
        let names = (found["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]] ?? []
        #expect(names.contains { ($0["symbols"] as? [[String: Any]])?.last?["function"] as? String == "main" })
    }

    /// A Swift program's dump lists a dozen runtime libraries that ship no debug information: those its frames point
    /// into are named together in one line at the end, not one line each, and those no frame reaches not at all (they
    /// are not opened).
    @Test func librariesWithoutDebugInformationAreOneLine() throws {
        let directory = try CrashingPrograms.directory.get()
        let dump = try CrashpadDumps.dump(
            of: CrashingPrograms.Crash(program: "crashes", arguments: ["fatal"]), in: directory)
        let result = try Command.run(Paths.postmortem, ["symbolicate", "--offline", "--no-cache", dump])
        #expect(result.status == 0)
        // The Swift toolchain's runtime libraries ship without debug information.
        let lines = result.errorLines.filter { $0.contains("no debug information found") }
        #expect(lines.count == 1, "\(lines)")
        let line = lines.first ?? ""
        #expect(line.contains("libswiftCore.so"), "\(line)")
        let named: [String]
        if let listed = line.range(of: "no debug information found for ") {
            let names = line[listed.upperBound...].prefix { $0 != ";" }
            named = names.replacingOccurrences(of: " and ", with: ", ").components(separatedBy: ", ")
        } else {
            let path = line.dropFirst("postmortem: ".count).prefix { $0 != ":" }
            named = [String(path.split(separator: "/").last ?? path)]
        }
        let frameLines = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("#") }
        for name in named {
            #expect(frameLines.contains { $0.contains(name) }, "\(name) is named but no frame points into it")
        }
        // The dump lists libraries no frame reaches (Foundation's, Dispatch's): not named.
        let listedImages = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("0x") }
        let unreached = listedImages.compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
            .filter { name in !frameLines.contains { $0.contains(name) } }
        #expect(!unreached.isEmpty, "every library listed has a frame: the test proves nothing")
        for name in unreached { #expect(!line.contains(name), "\(name) has no frame but was opened") }
    }
}
