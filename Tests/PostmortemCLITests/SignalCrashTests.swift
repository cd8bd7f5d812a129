import Foundation
import TestSupport
import Testing

/// Real crashes of `SampleCrashes/linux-c-signal` (made by its `build.sh`): a SIGSEGV handler's glibc backtrace, in a
/// PIE, in a shared library and in a non-PIE executable, and gdb's backtrace from inside the handler. Each frame is
/// checked against llvm-symbolizer at a file address this test works out from the log itself (with `nm` for
/// `symbol+offset` frames): the interrupted instruction after the trampoline as printed, return addresses one byte
/// back.
@Suite("Symbolicate: signal frames and which binary")
struct SignalCrashTests {
    static let sample = "SampleCrashes/linux-c-signal"

    /// One glibc frame line of a sample log, taken apart by the test (not by postmortem).
    struct LogFrame {
        var module: String
        var symbol: String?
        var offset: UInt64?
        var address: UInt64
    }

    static func frames(ofLog name: String) throws -> [LogFrame] {
        let text = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(sample)/\(name)").path, encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"^([^(\[ ]+)(?:\(([^+)]*)\+0x([0-9a-f]+)\))?\[0x([0-9a-f]+)\]$"#)
        return text.split(separator: "\n").compactMap { line in
            let line = String(line)
            guard let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else {
                return nil
            }
            func group(_ index: Int) -> String? {
                Range(match.range(at: index), in: line).map { String(line[$0]) }
            }
            return LogFrame(
                module: group(1)!, symbol: group(2).flatMap { $0.isEmpty ? nil : $0 },
                offset: group(3).flatMap { UInt64($0, radix: 16) }, address: UInt64(group(4)!, radix: 16)!)
        }
    }

    /// The address of `symbol` in `binary`, as `nm` prints it.
    static func address(of symbol: String, in binary: String) throws -> UInt64? {
        let listing = try Fixtures.run("nm", ["--defined-only", binary])
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, fields[2] == symbol { return UInt64(fields[0], radix: 16) }
        }
        return nil
    }

    /// llvm-symbolizer's inline chain at `address` of `binary`.
    static func llvmChain(_ binary: String, _ address: UInt64) throws -> [ComparableFrame] {
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let output = try Command.run(
            symbolizer,
            [
                "--inlining", "--output-style=JSON", "--relative-address", "-e", binary,
                "0x" + String(address, radix: 16)
            ])
        return try ChainParser.llvmSymbolizer(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func reportFrames(_ arguments: [String], currentDirectory: URL = Paths.packageRoot) throws -> [[String: Any]]
    {
        let result = try Command.run(
            Paths.postmortem, ["symbolicate", "--json", "--no-cache"] + arguments,
            currentDirectory: currentDirectory)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let threads = try #require(report["threads"] as? [[String: Any]])
        return try #require(threads.first?["frames"] as? [[String: Any]])
    }

    /// Frame by frame against llvm-symbolizer: the program's and the library's frames (libc's are this machine's, and
    /// llvm-symbolizer has no debug file for them). Frame 0 is the handler, 1 the trampoline, 2 the interrupted instruction.
    @Test(arguments: [("segv-pie.txt", "app"), ("segv-lib.txt", "app"), ("segv-nopie.txt", "app-nopie")])
    func everyProgramFrameAgreesWithLLVMSymbolizer(_ log: String, _ program: String) throws {
        let logFrames = try Self.frames(ofLog: log)
        let reported = try Self.reportFrames([Self.sample + "/" + log])
        #expect(logFrames.count == reported.count)
        var checked = 0
        for (index, (logFrame, frame)) in zip(logFrames, reported).enumerated()
        where !logFrame.module.contains("libc.so") {
            let name = (logFrame.module as NSString).lastPathComponent
            let binary = Paths.packageRoot.appendingPathComponent("\(Self.sample)/\(name)").path
            let fileAddress: UInt64
            if let symbol = logFrame.symbol, let offset = logFrame.offset {
                fileAddress = try #require(try Self.address(of: symbol, in: binary)) + offset
            } else if let offset = logFrame.offset {
                fileAddress = offset
            } else {
                fileAddress = logFrame.address // not position-independent: runs where it was linked
            }
            let interrupted = index == 2
            let expected = try Self.llvmChain(binary, interrupted ? fileAddress : fileAddress - 1)
            #expect(!expected.isEmpty)
            #expect(ChainParser.reportFrame(frame) == expected, "\(log) frame \(index)")
            if interrupted {
                // The test could tell a lookup one byte early from the right one.
                #expect(
                    try Self.llvmChain(binary, fileAddress - 1) != expected,
                    "\(log): frame 2 looked up one byte early gives the same")
                #expect(
                    expected.count == (program == "app" && log.contains("lib") ? 2 : 3), "the inlined frames are there")
            }
            checked += 1
        }
        #expect(checked >= 4)
    }

    /// The trampoline itself resolves as glibc's `__restore_rt`, when this machine's libc is the one that crashed and
    /// its debug file is installed (libc6-dbg).
    @Test func theTrampolineFrameIsRestoreRT() throws {
        try SampleMachine.require(SampleMachine.glibc(), debugFile: true)
        let frames = try Self.reportFrames([Self.sample + "/segv-pie.txt"])
        let trampoline = frames[1]
        let names = (trampoline["symbols"] as? [[String: Any]] ?? []).compactMap { $0["function"] as? String }
        #expect(names == ["__restore_rt"], "\(trampoline)")
    }

    /// Darwin's trampoline, `_sigtramp`, in a crash reporter's `callStackSymbols` (the Umeng handler's form): the frame
    /// after it is the interrupted instruction, looked up at its own address; the same address as a caller's return
    /// address is looked up one byte back.
    @Test func theFrameAfterSigtrampIsTheInterruptedInstruction() throws {
        let log = """
            Application received signal SIGSEGV
            (null)
            ((
              0  App                            0x0000000104a3c904 handler + 4
              1  libsystem_platform.dylib       0x000000019827d93c _sigtramp + 52
              2  App                            0x0000000104a3c944 main + 68
              3  App                            0x0000000104a3c944 main + 68
            )

            """
        let scratch = try BadInputTests.Scratch()
        try log.write(toFile: scratch.path("signal.txt"), atomically: true, encoding: .utf8)
        let result = try Command.postmortem([
            "symbolicate", "--json", "--no-cache", "-o", "Tests/Fixtures/Apple/bin/App.dSYM", "--arch", "arm64",
            "-l", "0x104a3c000", scratch.path("signal.txt")
        ])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            "\(result.standardError)")
        let frames = try #require((report["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]])
        let lookups = frames.map { ($0["lookupAddress"] as? String).flatMap { UInt64($0.dropFirst(2), radix: 16) } }
        try #require(lookups.count == 4)
        let interrupted = try #require(lookups[2]), returning = try #require(lookups[3])
        #expect(
            interrupted == returning + 1,
            "after _sigtramp: 0x\(String(interrupted, radix: 16)); as a return address: 0x\(String(returning, radix: 16))"
        )
    }

    /// gdb's `<signal handler called>`: the frame after it is the interrupted instruction, at the file address the
    /// mapping table gives.
    @Test func gdbBacktraceOfASignal() throws {
        let text = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(Self.sample)/gdb-bt.txt").path, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let frameLine = try #require(lines.first { $0.hasPrefix("#2 ") })
        let pc = try #require(UInt64(frameLine.split(separator: " ")[1].dropFirst(2), radix: 16))
        let mapping = try #require(lines.first { $0.hasSuffix("/app") && $0.contains(" 0x0 ") })
        let load = try #require(UInt64(mapping.split(separator: " ")[0].dropFirst(2), radix: 16))
        let binary = Paths.packageRoot.appendingPathComponent("\(Self.sample)/app").path
        let expected = try Self.llvmChain(binary, pc - load)
        let result = try Command.postmortem([
            "symbolicate", "--no-cache", "-d", Self.sample, Self.sample + "/gdb-bt.txt"
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let printed = result.outputLines.filter { $0.hasPrefix("#2 ") }
        #expect(printed.count == expected.count, "\(printed)")
        for (line, frame) in zip(printed, expected) {
            #expect(
                line.contains(" \(frame.function ?? "??") ()") && line.hasSuffix(":\(frame.line)"),
                "\(line) is not \(frame)")
        }
    }

    /// systemd-coredump's report of the crash (its layout, written by coredump-layout.py in gdb at the fault): read as
    /// its own format, each program frame at its module offset (the crashing one as printed, callers one byte back)
    /// as llvm-symbolizer resolves it, the binary found beside the log by name and build-id, printed back in place.
    @Test func systemdCoredumpReport() throws {
        let log = Self.sample + "/coredump.txt"
        let text = try String(contentsOfFile: Paths.packageRoot.appendingPathComponent(log).path, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"^#(\d+) +0x[0-9a-f]+ \S+ \((\S+) \+ 0x([0-9a-f]+)\)$"#)
        var expected: [[ComparableFrame]] = []
        for line in text.split(separator: "\n").map(String.init) {
            guard let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                let number = Range(match.range(at: 1), in: line).flatMap({ Int(line[$0]) }),
                let module = Range(match.range(at: 2), in: line).map({ String(line[$0]) }),
                let offset = Range(match.range(at: 3), in: line).flatMap({ UInt64(line[$0], radix: 16) })
            else { continue }
            guard module == "app" else { expected.append([]); continue }
            let binary = Paths.packageRoot.appendingPathComponent("\(Self.sample)/app").path
            expected.append(try Self.llvmChain(binary, number == 0 ? offset : offset - 1))
        }
        let report = try Command.postmortem(["symbolicate", "--no-cache", "--json", log])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "systemd-coredump")
        let frames = try #require((object["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]])
        #expect(frames.count == expected.count && frames.count >= 4)
        for (frame, chain) in zip(frames, expected) where !chain.isEmpty {
            #expect(ChainParser.reportFrame(frame) == chain, "\(frame)")
        }
        #expect(expected.first?.map(\.function) == ["scale", "normalize", "process"])
        let printed = try Command.postmortem(["symbolicate", "--no-cache", log]).outputLines
        let innermost = try #require(expected.first?.first)
        let place = "at \(innermost.file ?? ""):\(innermost.line):\(innermost.column) (inlined)"
        #expect(
            printed.contains { $0.contains(" \(innermost.function ?? "") (app + 0x") && $0.hasSuffix(place) },
            "\(printed)")
        #expect(printed.first == text.split(separator: "\n").first.map(String.init))

        // The same report with blanks after each frame line and a tab before it (a log a tool re-indented): its frames are
        // printed back in systemd-coredump's layout still, the indentation kept (they came out in glibc's).
        let scratch = try BadInputTests.Scratch()
        let padded = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("#") ? "\t" + $0 + "  \t" : String($0) }.joined(separator: "\n")
        try padded.write(toFile: scratch.path("coredump.txt"), atomically: true, encoding: .utf8)
        let repadded = try Command.postmortem([
            "symbolicate", "--no-cache", "-d", Self.sample, scratch.path("coredump.txt")
        ]).outputLines
        let resolved = printed.filter { $0.hasPrefix("#") && $0.contains(" at ") }
        #expect(resolved.count >= 4)
        #expect(
            repadded.filter { $0.hasPrefix("\t#") && $0.contains(" at ") } == resolved.map { "\t" + $0 }, "\(repadded)")
    }

    /// A log too large to hold at once (the PIE crash's frames, over and over) is read in pieces and reads as it does
    /// whole: every block of frames comes out as the one block does, the frame after the trampoline too, wherever the
    /// pieces fall (the default 1 MiB pieces over 17 MB, and small pieces over 60 KB that cut it at every line). Each
    /// piece is written as it is done: with 64 KB pieces over 17 MB, the peak RSS stays well below the output's size
    /// on top of the input's (holding the 33 MB of output until the end took 45 MB more than the process's base).
    @Test(arguments: [(60_000, 311), (60_000, 1_000), (60_000, 4_096)] as [(Int, Int?)])
    func aLargeLogReadsAsItsBlocksDo(_ size: Int, _ pieceSize: Int?) throws {
        try largeLogReadsAsItsBlocksDo(size, pieceSize)
    }

    /// The same over 17 MB, in the default pieces and in 64 KB ones (with the memory bound).
    @Test(
        .enabled(if: Paths.runsTheReleaseBinary, "17 MB runs on the release binary, make test's second pass"),
        arguments: [(17_000_000, nil), (17_000_000, 65_536)] as [(Int, Int?)])
    func aSeventeenMegabyteLogReadsAsItsBlocksDo(_ size: Int, _ pieceSize: Int?) throws {
        try largeLogReadsAsItsBlocksDo(size, pieceSize)
    }

    private func largeLogReadsAsItsBlocksDo(_ size: Int, _ pieceSize: Int?) throws {
        let scratch = try BadInputTests.Scratch()
        let original = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(Self.sample)/segv-pie.txt").path,
            encoding: .utf8)
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let header = lines.filter { !$0.contains("[0x") }, frames = lines.filter { $0.contains("[0x") }
        #expect(header.count == 2 && frames.count == 7)
        let block = frames.joined(separator: "\n") + "\n"
        let repeats = size / block.utf8.count + 1
        try (header.joined(separator: "\n") + "\n" + block).write(
            toFile: scratch.path("one.txt"), atomically: true, encoding: .utf8)
        try (header.joined(separator: "\n") + "\n" + String(repeating: block, count: repeats))
            .write(toFile: scratch.path("large.txt"), atomically: true, encoding: .utf8)
        let arguments = ["symbolicate", "--no-cache", "-d", Self.sample]
        let one = try Command.postmortem(arguments + [scratch.path("one.txt")]).outputLines
        let symbolicatedBlock = one.dropFirst(header.count).joined(separator: "\n") + "\n"
        var environment = ["POSTMORTEM_CACHE_DIR": Command.indexCacheDirectory, "POSTMORTEM_CACHE_WRITE": "foreground"]
        if let pieceSize { environment["POSTMORTEM_PIECE_SIZE"] = String(pieceSize) }
        let peak = scratch.path("peak")
        let large = try Command.run(
            "/usr/bin/time", ["-f", "%M", "-o", peak, Paths.postmortem] + arguments + [scratch.path("large.txt")],
            environment: environment)
        #expect(large.status == 0, "\(large.standardError)")
        let expected = header.joined(separator: "\n") + "\n" + String(repeating: symbolicatedBlock, count: repeats)
        #expect(large.standardOutput.utf8.count == expected.utf8.count)
        #expect(large.standardOutput == expected, "the large log reads as its blocks do")
        if size > 1_000_000, let pieceSize, pieceSize < 1_000_000 {
            let peakKiB =
                Int(try String(contentsOfFile: peak, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
                ?? .max
            #expect(
                peakKiB < (expected.utf8.count >> 10) + 35 * 1024,
                "peak RSS \(peakKiB) KiB for \(expected.utf8.count >> 10) KiB of output")
        }
    }

    /// A gdb session too large to hold at once (its backtrace over and over, `info proc mappings` after it) is read in
    /// pieces, the image table first: every block reads as the one block does, wherever the pieces fall.
    @Test(arguments: [(40_000, 97), (40_000, 2_048)] as [(Int, Int?)])
    func aLargeGDBSessionReadsAsItsBlocksDo(_ size: Int, _ pieceSize: Int?) throws {
        try largeGDBSessionReadsAsItsBlocksDo(size, pieceSize)
    }

    /// The same over 17 MB, in the default pieces.
    @Test(.enabled(if: Paths.runsTheReleaseBinary, "17 MB runs on the release binary, make test's second pass"))
    func aSeventeenMegabyteGDBSessionReadsAsItsBlocksDo() throws {
        try largeGDBSessionReadsAsItsBlocksDo(17_000_000, nil)
    }

    private func largeGDBSessionReadsAsItsBlocksDo(_ size: Int, _ pieceSize: Int?) throws {
        let scratch = try BadInputTests.Scratch()
        let original = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(Self.sample)/gdb-bt.txt").path, encoding: .utf8)
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let firstFrame = try #require(lines.firstIndex { $0.hasPrefix("#0 ") })
        let table = try #require(lines.firstIndex { $0.hasPrefix("Mapped address spaces:") })
        let header = Array(lines[..<firstFrame]), frames = Array(lines[firstFrame..<table]),
            mappings = Array(lines[table...])
        #expect(frames.count == 4 && mappings.count > 10)
        let block = frames.joined(separator: "\n") + "\n"
        let repeats = size / block.utf8.count + 1
        let head = header.joined(separator: "\n") + "\n", tail = mappings.joined(separator: "\n") + "\n"
        try (head + block + tail).write(toFile: scratch.path("one.txt"), atomically: true, encoding: .utf8)
        try (head + String(repeating: block, count: repeats) + tail).write(
            toFile: scratch.path("large.txt"), atomically: true, encoding: .utf8)
        let arguments = ["symbolicate", "--no-cache", "-d", Self.sample]
        let one = try Command.postmortem(arguments + [scratch.path("one.txt")]).outputLines
        #expect(one.count > header.count + frames.count + mappings.count, "the block gains inlined frames: \(one)")
        let symbolicatedBlock = one.dropFirst(header.count).dropLast(mappings.count).joined(separator: "\n") + "\n"
        var environment = ["POSTMORTEM_CACHE_DIR": Command.indexCacheDirectory, "POSTMORTEM_CACHE_WRITE": "foreground"]
        if let pieceSize { environment["POSTMORTEM_PIECE_SIZE"] = String(pieceSize) }
        let large = try Command.run(Paths.postmortem, arguments + [scratch.path("large.txt")], environment: environment)
        #expect(large.status == 0, "\(large.standardError)")
        let expected = head + String(repeating: symbolicatedBlock, count: repeats) + tail
        #expect(large.standardOutput.utf8.count == expected.utf8.count)
        #expect(large.standardOutput == expected, "the large session reads as its blocks do")
    }

    /// The Swift runtime's older trace (`SWIFT_BACKTRACE=enable=no`, SampleCrashes/linux-swift-backtrace/fatal.txt):
    /// `<unavailable> + N` frames give the frame's offset in its image, `symbol + N` ones the symbol's address and the
    /// offset into it. Every frame of the program and of libswiftCore (named by soname; the toolchain's, which made the log)
    /// resolves as llvm-symbolizer resolves the address the test works out from the log.
    @Test func olderSwiftTraceFramesAgreeWithLLVMSymbolizer() throws {
        let runtime = try SampleMachine.swiftRuntime()
        try SampleMachine.require(runtime)
        let folder = "SampleCrashes/linux-swift-backtrace"
        let text = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(folder)/fatal.txt").path, encoding: .utf8)
        let binaries = [
            "inventory": Paths.packageRoot.appendingPathComponent("\(folder)/inventory").path,
            "libswiftCore.so": runtime.path
        ]
        let pattern = try NSRegularExpression(pattern: #"^(\d+) +(\S+) +0x([0-9a-f]+) (.+) \+ (\d+)$"#)
        var rows: [(index: Int, image: String, address: UInt64, symbol: String, offset: UInt64)] = []
        for line in text.split(separator: "\n").map(String.init) {
            guard let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else {
                continue
            }
            func group(_ index: Int) -> String {
                Range(match.range(at: index), in: line).map { String(line[$0]) } ?? ""
            }
            rows.append((Int(group(1))!, group(2), UInt64(group(3), radix: 16)!, group(4), UInt64(group(5))!))
        }
        #expect(rows.count >= 12)
        // Each image's load bias, from its `<unavailable> + N` frames.
        var bias: [String: UInt64] = [:]
        for row in rows where row.symbol == "<unavailable>" { bias[row.image] = row.address - row.offset }
        let report = try Command.postmortem(["symbolicate", "--no-cache", "--json", "\(folder)/fatal.txt"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [String: Any])
        let frames = try #require((object["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]])
        var checked = 0
        for row in rows {
            guard let binary = binaries[row.image], let imageBias = bias[row.image] else { continue }
            let pc = row.symbol == "<unavailable>" ? row.address : row.address + row.offset
            let fileAddress = pc - imageBias
            // llvm-symbolizer names an object file (`Swift.o`, the STT_FILE swiftc writes) as a local symbol's source
            // file; postmortem does not, as that is no source file.
            let expected = try Self.llvmChain(binary, row.index == 0 ? fileAddress : fileAddress - 1).map { frame in
                var frame = frame
                if frame.line == 0, frame.file?.hasSuffix(".o") == true { frame.file = nil }
                return frame
            }
            let frame = try #require(frames.first { $0["index"] as? Int == row.index })
            #expect(ChainParser.reportFrame(frame) == expected, "frame \(row.index) in \(row.image)")
            checked += 1
        }
        #expect(checked >= 10)
    }

    /// The swift-backtrace package's report (SampleCrashes/swift-backtrace-package, made by its build.sh with the
    /// package's own handler) of the program run without its DWARF: bare addresses. libbacktrace prints each caller's
    /// return address less one already, so every address of the program is looked up as printed, and answers as
    /// llvm-symbolizer answers that address, inline chain and all; and as the package itself named the same frames
    /// (function and line) when the program had its DWARF (crash.txt).
    @Test func swiftBacktracePackageFramesAgreeWithLLVMSymbolizer() throws {
        let folder = "SampleCrashes/swift-backtrace-package"
        let binary = Paths.packageRoot.appendingPathComponent("\(folder)/tally").path
        let base: UInt64 = 0x5555_5555_4000
        let result = try Command.postmortem([
            "symbolicate", "--json", "--no-cache", "-o", binary, "-l", "0x555555554000", "\(folder)/crash-stripped.txt"
        ])
        let reports = try result.outputLines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let package = try #require(
            reports.first { ($0["exception"] as? [String: Any])?["type"] as? String == "signal 4" },
            "\(result.standardOutput)")
        let frames = try #require((package["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]])
        #expect(frames.count == 14)
        // What the package printed of the same addresses with the DWARF there: `0x…, function at ./file:line`.
        let named = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(folder)/crash.txt").path, encoding: .utf8
        )
        .split(separator: "\n").filter { $0.hasPrefix("0x5555") && $0.contains(", ") }
        let size = UInt64((try FileManager.default.attributesOfItem(atPath: binary)[.size] as? Int) ?? 0)
        var checked = 0, named_ = 0
        for frame in frames {
            guard let address = (frame["address"] as? String).flatMap({ UInt64($0.dropFirst(2), radix: 16) }),
                address >= base, address < base + size
            else { continue }
            #expect(
                frame["lookupAddress"] as? String == "0x" + String(address - base, radix: 16),
                "looked up as printed: \(frame)")
            let chain = ChainParser.reportFrame(frame)
            #expect(chain == (try Self.llvmChain(binary, address - base)), "0x\(String(address, radix: 16))")
            checked += 1
            if let line = named.first(where: { $0.hasPrefix("0x" + String(address, radix: 16) + ",") }),
                line.contains(" at ./"),
                let outermost = chain.last
            {
                // The unit's directory is `.` and its file `./Sources/…`: libbacktrace prints the file's name, the
                // DWARF readers join the two (`././Sources/…`); the same file.
                func relative(_ path: String) -> Substring {
                    var path = Substring(path)
                    while path.hasPrefix("./") { path = path.dropFirst(2) }
                    return path
                }
                let printed = line.components(separatedBy: " at ").last ?? ""
                #expect(
                    outermost.file.map { relative($0) + ":\(outermost.line)" } == relative(printed),
                    "\(line) / \(outermost)")
                named_ += 1
            }
        }
        #expect(checked >= 6 && named_ >= 5, "\(checked) frames of the program, \(named_) named by the package")
    }

    /// Another program named `app` beside the log is not used: the log's `process+0x0` is not in it.
    @Test func anotherProgramBesideTheLogIsRejected() throws {
        let scratch = try BadInputTests.Scratch()
        try FileManager.default.copyItem(
            atPath: Paths.packageRoot.appendingPathComponent("\(Self.sample)/segv-pie.txt").path,
            toPath: scratch.path("segv-pie.txt"))
        try FileManager.default.copyItem(atPath: Paths.fixture("sensors-gcc-dwarf5"), toPath: scratch.path("app"))
        let result = try Command.postmortem(["symbolicate", "--no-cache", scratch.path("segv-pie.txt")])
        #expect(result.status == 0)
        #expect(
            result.errorLines.contains { $0.contains("app: not used for the log's app: it has no symbol process") },
            "\(result.standardError)")
        #expect(
            result.errorLines.contains {
                $0.contains("app: 4 of 4 frames unresolved: no binary of the log's app found")
            })
        #expect(!result.standardOutput.contains("sensors.c"), "no answer comes from the other program")
        let strict = try Command.postmortem(["symbolicate", "--no-cache", "--strict", scratch.path("segv-pie.txt")])
        #expect(strict.status == 2)
    }

    /// The current directory is not where a log's `./app` is looked for: beside the log is.
    @Test func anotherAppInTheCurrentDirectoryIsNotUsed() throws {
        let scratch = try BadInputTests.Scratch()
        try FileManager.default.copyItem(atPath: Paths.fixture("sensors-gcc-dwarf5"), toPath: scratch.path("app"))
        let log = Paths.packageRoot.appendingPathComponent("\(Self.sample)/segv-pie.txt").path
        let frames = try Self.reportFrames([log], currentDirectory: scratch.url)
        let names = frames[2]["symbols"].flatMap { $0 as? [[String: Any]] }?.compactMap { $0["function"] as? String }
        #expect(names == ["scale", "normalize", "process"])
    }

    /// Where the log's binary is not beside it: `-d` with a plain folder holding `app.debug`, and `-o` for a frame
    /// that names its image.
    @Test func debugFileByNameInAFolderAndObjectForANamedImage() throws {
        let scratch = try BadInputTests.Scratch()
        try FileManager.default.copyItem(
            atPath: Paths.packageRoot.appendingPathComponent("\(Self.sample)/segv-pie.txt").path,
            toPath: scratch.path("segv-pie.txt"))
        try FileManager.default.createDirectory(atPath: scratch.path("flat"), withIntermediateDirectories: true)
        _ = try Fixtures.run(
            "objcopy",
            [
                "--only-keep-debug", Paths.packageRoot.appendingPathComponent("\(Self.sample)/app").path,
                scratch.path("flat/app.debug")
            ])
        let expected = ["scale", "normalize", "process"]
        for arguments in [
            ["-d", scratch.path("flat")], ["-o", Paths.packageRoot.appendingPathComponent("\(Self.sample)/app").path]
        ] {
            let frames = try Self.reportFrames(arguments + [scratch.path("segv-pie.txt")])
            let names = frames[2]["symbols"].flatMap { $0 as? [[String: Any]] }?.compactMap {
                $0["function"] as? String
            }
            #expect(names == expected, "\(arguments)")
        }
    }

    /// Nothing found: the log comes back as it was, and stderr says why, once per image, and what to try.
    @Test func unresolvedFramesAreExplained() throws {
        let scratch = try BadInputTests.Scratch()
        try FileManager.default.copyItem(
            atPath: Paths.packageRoot.appendingPathComponent("\(Self.sample)/segv-pie.txt").path,
            toPath: scratch.path("segv-pie.txt"))
        let result = try Command.postmortem(["symbolicate", "--no-cache", scratch.path("segv-pie.txt")])
        #expect(result.status == 0)
        let lines = result.errorLines.filter { $0.contains(": app: ") }
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(
            lines.first?.contains("4 of 4 frames unresolved: no binary found for app (./app); looked beside the log")
                ?? false)
        #expect(lines.first?.hasSuffix("try -d DIR (a folder holding it) or -o BINARY") ?? false)
    }

    @Test func aDirectoryWithoutLogsIsAnError() throws {
        let scratch = try BadInputTests.Scratch()
        let result = try Command.postmortem(["symbolicate", scratch.url.path])
        #expect(result.status == 1)
        #expect(result.errorLines == ["postmortem: \(scratch.url.path): no logs in this directory"])
    }
}
