import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

/// `postmortem symbolicate` on the samples: golden output, frame-by-frame agreement with llvm-symbolizer,
/// and bad logs.
@Suite("Symbolicate")
struct SymbolicateTests {
    static let asan = "SampleCrashes/linux-c-asan/asan.txt"
    static let glibc = "SampleCrashes/linux-c-sensors/crash.txt"
    static let swift = "SampleCrashes/linux-swift-backtrace/crash.txt"
    static let gdb = "SampleCrashes/linux-c-sensors/gdb-bt.txt"
    static let swiftJSON = "SampleCrashes/linux-swift-backtrace/crash.json"
    static let swiftFatal = "SampleCrashes/linux-swift-backtrace/fatal.txt"

    /// Lines about the machine's own libraries (libc, libasan) depend on the installed versions and
    /// their debug packages; golden files leave them out.
    static let systemLibraries = ["libc.so.6", "libasan.so", "libswiftCore.so"]

    static func withoutSystemLibraries(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in !systemLibraries.contains { line.contains($0) } }
            .joined(separator: "\n")
    }

    /// The same for a `--json` report, which is one line: its frames and images in those libraries are taken out of
    /// the JSON, and the rest printed one member a line with sorted keys (a golden file that shows the report).
    static func withoutSystemLibraries(json text: String, hostImages: Set<String> = []) throws -> String {
        let isSystem = { (value: Any?) in
            (value as? String).map { name in hostImages.contains(name) || systemLibraries.contains { name.contains($0) }
            } ?? false
        }
        guard var report = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            return text
        }
        report["threads"] = (report["threads"] as? [[String: Any]])?.map { thread in
            var thread = thread
            thread["frames"] = (thread["frames"] as? [[String: Any]])?.filter { !isSystem($0["image"]) }
            return thread
        }
        report["images"] = (report["images"] as? [[String: Any]])?.filter {
            !isSystem($0["name"]) && !isSystem($0["path"])
        }
        let data = try JSONSerialization.data(
            withJSONObject: report, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The names of the images of a `--json` report that this machine supplied, whatever the log's text says: those the
    /// log places in a system folder, and those resolved through a debug file outside the repository (libc6-dbg's).
    static func hostImages(ofReport report: [String: Any]) -> Set<String> {
        var names = Set<String>()
        for image in report["images"] as? [[String: Any]] ?? [] {
            guard let name = image["name"] as? String else { continue }
            let path = image["path"] as? String ?? ""
            let debugFile = image["debugFile"] as? String ?? ""
            let systemPath = ["/lib/", "/lib64/", "/usr/", "/opt/"].contains { path.hasPrefix($0) }
            let debugFileElsewhere = debugFile.hasPrefix("/") && !debugFile.hasPrefix(Paths.packageRoot.path + "/")
            if systemPath || debugFileElsewhere || systemLibraries.contains(where: name.contains) { names.insert(name) }
        }
        return names
    }

    /// The runtime addresses of the frames of a `--json` report in `images`.
    static func addresses(ofReport report: [String: Any], in images: Set<String>) -> Set<UInt64> {
        var addresses = Set<UInt64>()
        for thread in report["threads"] as? [[String: Any]] ?? [] {
            for frame in thread["frames"] as? [[String: Any]] ?? [] {
                guard let image = frame["image"] as? String, images.contains(image),
                    let address = (frame["address"] as? String).flatMap({ UInt64($0.dropFirst(2), radix: 16) })
                else { continue }
                addresses.insert(address)
            }
        }
        return addresses
    }

    /// `text` without the lines symbolication wrote that hold one of `addresses` (in any width, `0x` and hex digits):
    /// a frame of a host library, once symbolicated, no longer names the library, but keeps its address. Lines as the
    /// log has them (`logLines`) are the log's, whatever the host, and stay.
    static func without(addresses: Set<UInt64>, _ text: String, keeping logLines: Set<Substring>) -> String {
        guard !addresses.isEmpty else { return text }
        let pattern = try! NSRegularExpression(pattern: "0x[0-9a-fA-F]+")
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if logLines.contains(line) { return true }
            let line = String(line)
            return !pattern.matches(in: line, range: NSRange(line.startIndex..., in: line)).contains { match in
                Range(match.range, in: line).flatMap { UInt64(line[$0].dropFirst(2), radix: 16) }.map(
                    addresses.contains) ?? false
            }
        }.joined(separator: "\n")
    }

    private func checkGolden(_ name: String, _ arguments: [String]) throws {
        var result = try Command.postmortem(arguments)
        #expect(result.status == 0 && !result.standardOutput.isEmpty, "\(result.standardError)")
        // Which frames this machine's libraries answered is read from the parsed report, not from the printed lines.
        let json =
            arguments.contains("--json")
            ? result : try Command.postmortem(["symbolicate", "--json"] + arguments.dropFirst())
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let host = Self.hostImages(ofReport: report)
        if arguments.contains("--json") {
            result.standardOutput = try Self.withoutSystemLibraries(json: result.standardOutput, hostImages: host)
        } else {
            let log = try String(
                contentsOfFile: Paths.packageRoot.appendingPathComponent(try #require(arguments.last)).path,
                encoding: .utf8)
            let logLines = Set(log.split(separator: "\n", omittingEmptySubsequences: false))
            result.standardOutput = Self.without(
                addresses: Self.addresses(ofReport: report, in: host), result.standardOutput,
                keeping: logLines)
        }
        let actual = Self.withoutSystemLibraries(Golden.transcript(arguments: arguments, input: nil, result: result))
        GoldenFile.check(actual, against: Paths.golden.appendingPathComponent(name + ".txt"))
    }

    /// `--source-context`: two lines either side of each frame's line, the line marked, a caret under its column; in
    /// JSON `preContext`, `contextLine` and `postContext` (the sources are found below the log's folder).
    /// lldb names code no symbol covers `___lldb_unnamed_symbolN`: no symbol table has that name, so it says nothing
    /// against the binary (it disowned the binary before: "it has no symbol ___lldb_unnamed_symbol12").
    @Test func lldbsMadeUpNamesDoNotDisownTheBinary() throws {
        let folder = Fixtures.scratchDirectory("lldb-unnamed")
        let load: UInt64 = 0x5555_5555_4000
        let log = """
            * thread #1, name = 'sensors', stop reason = signal SIGSEGV
              * frame #0: 0x\(String(load + 0x1290 + 16, radix: 16)) sensors-gcc-dwarf5`sample_at + 16
                frame #1: 0x\(String(load + 0x10a0 + 40, radix: 16)) sensors-gcc-dwarf5`___lldb_unnamed_symbol12 + 5
            """
        try log.write(toFile: folder + "/lldb.txt", atomically: true, encoding: .utf8)
        let result = try Command.postmortem([
            "symbolicate", "--json", "--no-cache", "-d", "Tests/Fixtures/bin", folder + "/lldb.txt"
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("not used"), "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let frames = (report["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]] ?? []
        let names = frames.map { (($0["symbols"] as? [[String: Any]])?.last?["function"] as? String) ?? "" }
        #expect(names == ["sample_at", "main"], "\(result.standardOutput)")
    }

    @Test func sourceContextText() throws {
        try checkGolden("symbolicate-swift-source", ["symbolicate", "--source-context", "2", Self.swift])
    }
    @Test func sourceContextJSON() throws {
        try checkGolden("symbolicate-swift-source-json", ["symbolicate", "--json", "--source-context", "2", Self.swift])
    }

    /// Each frame's source lines are the file's own lines around the frame's line (read here), found through
    /// `--source-map` from the path the debug information gives (`./crash.c`, the build's prefix map) to the sample's
    /// folder, whatever the current directory; a file that cannot be found is one line on stderr, not one per frame.
    @Test func sourceContextIsTheFilesOwnLines() throws {
        let folder = "SampleCrashes/linux-c-signal"
        let source = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(folder)/crash.c").path, encoding: .utf8
        )
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let result = try Command.run(
            Paths.postmortem,
            [
                "symbolicate", "--json", "--no-cache", "--source-context", "3",
                "--source-map", ".=\(Paths.packageRoot.path)/\(folder)", "-d", "\(Paths.packageRoot.path)/\(folder)",
                "\(Paths.packageRoot.path)/\(folder)/segv-pie.txt"
            ], currentDirectory: URL(fileURLWithPath: "/"))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        var checked = 0
        for frame in (report["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]] ?? [] {
            for symbol in frame["symbols"] as? [[String: Any]] ?? [] where symbol["file"] as? String == "./crash.c" {
                let line = try #require(symbol["line"] as? Int)
                #expect(symbol["contextLine"] as? String == source[line - 1])
                #expect(symbol["preContext"] as? [String] == Array(source[max(0, line - 4)..<(line - 1)]))
                #expect(symbol["postContext"] as? [String] == Array(source[line..<min(source.count, line + 3)]))
                checked += 1
            }
        }
        #expect(checked >= 4)
        let missing = try Command.run(
            Paths.postmortem,
            [
                "symbolicate", "--no-cache", "--source-context", "1", "-d", folder,
                "--source-map", ".=/nonexistent", "\(folder)/segv-pie.txt"
            ])
        #expect(missing.errorLines.filter { $0.contains("no source for") }.count == 1, "\(missing.standardError)")
        #expect(missing.standardError.contains("/nonexistent/crash.c"))
    }

    /// A Swift backtracer report printed back: each frame of an inline chain at the fault (the crashing frames the
    /// runtime prints one line each) is followed by its own lines of source, read here from the file.
    @Test func sourceContextFollowsEachInlinedFrame() throws {
        let folder = "SampleCrashes/linux-swift-backtrace"
        let source = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(folder)/Pipeline.swift").path, encoding: .utf8
        )
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let result = try Command.postmortem([
            "symbolicate", "--source-context", "1", "-d", folder, "\(folder)/pipeline.txt"
        ])
        let lines = result.outputLines
        var checked = 0
        for (index, line) in lines.enumerated()
        where line.contains("[inlined]") && line.contains("at ./Pipeline.swift:") {
            let number = try #require(line.split(separator: ":").dropLast().last.flatMap { Int($0) })
            // The frame's line, then the line before its own, then its own, marked with its number.
            let marked = lines.indices.contains(index + 2) ? lines[index + 2] : ""
            #expect(marked.contains("→ \(number) │") && marked.hasSuffix("│ " + source[number - 1]), "\(line)")
            checked += 1
        }
        #expect(checked >= 2, "\(result.standardOutput)")
    }

    /// `resolve --source-context` too: in JSON each symbol's lines are the file's own (read here), found beside the
    /// binary; in text they follow the answer.
    @Test func resolveSourceContextIsTheFilesOwnLines() throws {
        let folder = "SampleCrashes/linux-c-signal"
        let source = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(folder)/crash.c").path, encoding: .utf8
        )
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let result = try Command.postmortem([
            "resolve", "--json", "--source-context", "2", "-o", "\(folder)/app", "0x1290", "0x111f"
        ])
        var checked = 0
        for line in result.outputLines {
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for symbol in answer["frames"] as? [[String: Any]] ?? [] {
                let number = try #require(symbol["line"] as? Int)
                #expect(symbol["contextLine"] as? String == source[number - 1])
                #expect(symbol["preContext"] as? [String] == Array(source[(number - 3)..<(number - 1)]))
                checked += 1
            }
        }
        #expect(checked >= 4)
        let text = try Command.postmortem(["resolve", "--source-context", "1", "-o", "\(folder)/app", "0x1290"])
            .outputLines
        #expect(text.count == 5 && text[2].hasSuffix("│ " + source[25]) && text[2].contains("→"), "\(text)")
    }

    @Test func sanitizerReportText() throws { try checkGolden("symbolicate-asan", ["symbolicate", Self.asan]) }
    @Test func sanitizerReportJSON() throws {
        try checkGolden("symbolicate-asan-json", ["symbolicate", "--json", Self.asan])
    }
    @Test func glibcBacktraceText() throws { try checkGolden("symbolicate-glibc", ["symbolicate", Self.glibc]) }
    @Test func glibcBacktraceJSON() throws {
        try checkGolden("symbolicate-glibc-json", ["symbolicate", "--json", Self.glibc])
    }
    @Test func swiftBacktraceText() throws { try checkGolden("symbolicate-swift", ["symbolicate", Self.swift]) }
    /// The backtracer's JSON report: each frame object gains symbol, offset, image and sourceLocation in place.
    @Test func swiftBacktraceJSONReportIsFilledInPlace() throws {
        let result = try Command.postmortem(["symbolicate", Self.swiftJSON])
        #expect(result.status == 0)
        let input = try String(contentsOf: Paths.packageRoot.appendingPathComponent(Self.swiftJSON), encoding: .utf8)
        let reportLine = try #require(result.outputLines.first { $0.hasPrefix("{") })
        #expect(
            result.outputLines.filter { !$0.hasPrefix("{") }
                == input.split(separator: "\n", omittingEmptySubsequences: false)
                .map(String.init).filter { !$0.hasPrefix("{") }.dropLast(input.hasSuffix("\n") ? 1 : 0).map { $0 },
            "the lines around the report are untouched")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(reportLine.utf8)) as? [String: Any])
        let frames = try #require((report["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]])
        let second = frames[1]
        // As the runtime writes its own symbolicated report: the mangled name, the readable one with the offset from
        // the call (the return address less one) in the description.
        #expect(second["symbol"] as? String == "$s9inventory9InventoryV8requiredySiSSF")
        let offset = try #require(second["offset"] as? Int)
        #expect(second["description"] as? String == "Inventory.required(_:) + \(offset)")
        #expect((second["sourceLocation"] as? [String: Any])?["line"] as? Int == 7)
        #expect(second["kind"] as? String == "returnAddress", "the frame keeps what it had")
        #expect(report["images"] != nil && report["capturedMemory"] != nil)
    }

    @Test func gdbBacktraceText() throws { try checkGolden("symbolicate-gdb", ["symbolicate", Self.gdb]) }
    @Test func gdbBacktraceJSON() throws {
        try checkGolden("symbolicate-gdb-json", ["symbolicate", "--json", Self.gdb])
    }
    @Test func swiftBacktraceJSON() throws {
        try checkGolden("symbolicate-swift-json", ["symbolicate", "--json", Self.swift])
    }
    @Test func swiftFatalText() throws { try checkGolden("symbolicate-swift-fatal", ["symbolicate", Self.swiftFatal]) }
    @Test func swiftFatalJSON() throws {
        try checkGolden("symbolicate-swift-fatal-json", ["symbolicate", "--json", Self.swiftFatal])
    }

    /// The debug files of the samples' stripped binaries.
    static let debugFiles = ["sensors": "SampleCrashes/linux-c-sensors/.debug/sensors.debug"]

    /// Every frame of the sample's own binary agrees with llvm-symbolizer on the same module offset
    /// (the sanitizer's addresses need no adjustment; glibc's and the backtracer's return addresses are looked up at -1).
    @Test(arguments: [
        (asan, "readings", UInt64(0)), (glibc, "sensors", UInt64(1)), (swift, "inventory", UInt64(1)),
        (gdb, "sensors", UInt64(1)), (swiftJSON, "inventory", UInt64(1)), (swiftFatal, "inventory", UInt64(1))
    ])
    func framesAgreeWithLLVMSymbolizer(_ log: String, _ binary: String, _ adjustment: UInt64) throws {
        let symbolizer = try #require(Paths.llvmSymbolizer)
        let result = try Command.postmortem(["symbolicate", "--json", "--no-demangle", log])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let threads = try #require(report["threads"] as? [[String: Any]])
        let images = try #require(report["images"] as? [[String: Any]])
        let load = images.first { $0["name"] as? String == binary }.flatMap { $0["loadAddress"] as? String }
            .flatMap { UInt64($0.dropFirst(2), radix: 16) }
        let object = (log as NSString).deletingLastPathComponent + "/" + binary
        // The offsets the log itself gives (read by the test's own patterns); postmortem must have found the same ones.
        let text = try String(contentsOfFile: Paths.packageRoot.appendingPathComponent(log).path, encoding: .utf8)
        let expectedOffsets = try LogOffsets.offsets(in: text, binary: binary)
        let frames = threads.flatMap { $0["frames"] as? [[String: Any]] ?? [] }.filter {
            $0["image"] as? String == binary
        }
        let foundOffsets = frames.map { frame -> UInt64? in
            let address = (frame["address"] as? String).flatMap { UInt64($0.dropFirst(2), radix: 16) }
            return (frame["imageOffset"] as? String).flatMap { UInt64($0.dropFirst(2), radix: 16) }
                ?? address.flatMap { address in load.map { address - $0 } }
        }
        #expect(foundOffsets == expectedOffsets.map(Optional.some), "the log's own offsets of \(binary)")
        var compared = 0
        for (frame, offset) in zip(frames, expectedOffsets) {
            let ours = ChainParser.reportFrame(frame)
            let reference = try Command.run(
                symbolizer,
                [
                    "--obj=\(Paths.packageRoot.appendingPathComponent(object).path)", "--inlining",
                    "--no-demangle", "--output-style=JSON", "0x" + String(offset - adjustment, radix: 16)
                ])
            var theirs = try ChainParser.llvmSymbolizer(reference.outputLines.first ?? "")
            // Code the DWARF does not cover (`_start`) in a stripped binary: llvm-symbolizer reads the binary's own
            // symbols, none; postmortem names it from its debug file's. The same question asked of the debug file itself
            // is the oracle there.
            if theirs.isEmpty, let debugFile = Self.debugFiles[binary] {
                let again = try Command.run(
                    symbolizer,
                    [
                        "--obj=\(Paths.packageRoot.appendingPathComponent(debugFile).path)", "--inlining",
                        "--no-demangle", "--output-style=JSON", "0x" + String(offset - adjustment, radix: 16)
                    ])
                theirs = try ChainParser.llvmSymbolizer(again.outputLines.first ?? "")
            }
            #expect(ours == theirs, "frame at +0x\(String(offset, radix: 16)): \(ours) vs \(theirs)")
            compared += 1
        }
        #expect(compared >= 4)
    }

    @Test func badLogsGetOneLineAndTheRestGoesOn() throws {
        let scratch = try BadInputTests.Scratch()
        let junk = scratch.path("junk.bin")
        try Data([0, 1, 2, 255, 254, 0, 10, 0x80, 0x81]).write(to: URL(fileURLWithPath: junk))
        let truncated = scratch.path("truncated.txt")
        let asan = try Data(contentsOf: Paths.packageRoot.appendingPathComponent(Self.asan))
        try asan.prefix(600).write(to: URL(fileURLWithPath: truncated))
        try FileManager.default.copyItem(
            atPath: Paths.packageRoot.appendingPathComponent("SampleCrashes/linux-c-asan/readings").path,
            toPath: scratch.path("readings"))
        let result = try Command.postmortem(["symbolicate", junk, "/nonexistent.crash", truncated])
        #expect(result.status == 0, "the truncated report still came out")
        #expect(result.errorLines.contains { $0.hasPrefix("postmortem: \(junk): no crash log") })
        #expect(result.errorLines.contains { $0.hasPrefix("postmortem: /nonexistent.crash: cannot open") })
        #expect(result.standardOutput.contains("in last_value ./readings.c:25:12"), "\(result.standardOutput)")

        let nothing = try Command.postmortem(["symbolicate", junk])
        #expect(nothing.status == 1)
    }

    /// A folder of every committed log (the samples, the corpus the project may carry), some resolving through `-d`,
    /// most not, with a file that is no log and a missing one named: worked on several at once, each log's output and
    /// each line on stderr come out as on one thread, byte for byte, in text and JSON, and `--strict` fails alike.
    @Test(arguments: [[], ["--json"], ["--strict"]])
    func logsWorkedOnAtOnceComeOutAsOnOneThread(_ mode: [String]) throws {
        let scratch = try BadInputTests.Scratch()
        let (folder, copied) = try CommittedLogs.folder(named: "logs", in: scratch)
        let root = Paths.packageRoot.path
        #expect(copied >= 60)
        try Data("no log here\n".utf8).write(to: URL(fileURLWithPath: folder + "/zz-not-a-log.txt"))
        let arguments =
            ["symbolicate", "--no-cache", "-d", root + "/SampleCrashes"] + mode + [folder, "/nonexistent/crash.txt"]
        let one = try Command.postmortem(arguments + ["--jobs", "1"])
        #expect(
            one.errorLines.count >= (mode == ["--json"] ? 5 : 20),
            "lines on stderr to keep in order: \(one.standardError)")
        for jobs in ["2", "3"] {
            let several = try Command.postmortem(arguments + ["--jobs", jobs])
            #expect(several.status == one.status)
            #expect(several.standardOutput == one.standardOutput, "--jobs \(jobs)")
            #expect(several.errorLines == one.errorLines, "--jobs \(jobs)")
        }
    }

    /// The Swift runtime's libraries have no debug information here: named together in one line at the end, or with
    /// `--verbose` each on a line of its own; the same images either way, and nothing else said differently.
    @Test func imagesWithoutDebugInformationAreNamedTogetherOrOneByOne() throws {
        let log = "SampleCrashes/linux-groups/range-backtrace-aslr-on.txt"
        let together = try Command.postmortem(["symbolicate", "--no-cache", log])
        let oneByOne = try Command.postmortem(["symbolicate", "--no-cache", "--verbose", log])
        #expect(together.standardOutput == oneByOne.standardOutput)
        let gathered = together.errorLines.filter { $0.contains("no debug information found for ") }
        try #require(gathered.count == 1, "\(together.standardError)")
        let each = oneByOne.errorLines.filter { $0.contains("no debug information found") }
        #expect(
            each.count >= 2 && !each.contains { $0.contains("no debug information found for ") },
            "\(oneByOne.standardError)")
        let named = each.compactMap { line in
            line.firstMatch(of: /postmortem: (\S+): no debug information/).map {
                String($0.1).split(separator: "/").last.map(String.init)
            } ?? nil
        }
        #expect(named.count == each.count, "\(each)")
        #expect(named.allSatisfy { gathered[0].contains($0) }, "\(named) in \(gathered[0])")
        #expect(
            together.errorLines.filter { !$0.contains("no debug information found") }
                == oneByOne.errorLines.filter { !$0.contains("no debug information found") })
    }

    /// What opening an image found is said only of an image the log's frames are read with: libstdc++ (no debug
    /// information here) named by a trace whose symbol offsets it contradicts is passed over, and nothing says it
    /// has no debug information; the same trace with offsets it agrees with uses it and says so, once.
    @Test func onlyAnImageInUseIsSaidToLackDebugInformation() throws {
        let library = "/lib/x86_64-linux-gnu/libstdc++.so.6"
        let symbols = try Fixtures.run("nm", ["-D", library]).split(separator: "\n")
        let join = try #require(
            symbols.first { $0.hasSuffix(" _ZNSt6thread4joinEv@@GLIBCXX_3.4.11") }, "libstdc++'s std::thread::join")
        let value = try #require(UInt64(join.prefix { $0 != " " }, radix: 16))
        let scratch = try BadInputTests.Scratch()
        func trace(offset: UInt64, claimed: UInt64) throws -> CommandResult {
            let address = 0x7f00_0000_0000 + value + offset
            let log = scratch.path("trace-\(claimed).txt")
            try
                "Caught signal 11, backtrace:\n\(library)(_ZNSt6thread4joinEv+0x\(String(claimed, radix: 16)))[0x\(String(address, radix: 16))]\n"
                .write(toFile: log, atomically: true, encoding: .utf8)
            return try Command.postmortem(["symbolicate", "--no-cache", log])
        }
        let agreeing = try trace(offset: 0x17, claimed: 0x17)
        #expect(agreeing.standardOutput.contains("std::thread::join()"), "\(agreeing.standardOutput)")
        #expect(
            agreeing.errorLines.filter { $0.contains("no debug information found") }.count == 1,
            "\(agreeing.standardError)")
        let contradicting = try trace(offset: 0x17, claimed: 0x5_0017)
        #expect(
            contradicting.errorLines.contains { $0.contains("not used for the log's libstdc++.so.6") },
            "\(contradicting.standardError)")
        #expect(
            !contradicting.errorLines.contains { $0.contains("no debug information found") },
            "\(contradicting.standardError)")
    }

    @Test func crlfInvalidUTF8AndUnresolvedLinesSurviveByteForByte() throws {
        let scratch = try BadInputTests.Scratch()
        // Point the system libraries nowhere, so that nothing in this copy resolves; then CRLF and invalid UTF-8.
        let original = try String(contentsOf: Paths.packageRoot.appendingPathComponent(Self.asan), encoding: .utf8)
        var text = Array(original.replacingOccurrences(of: "/lib/x86_64-linux-gnu/", with: "/nonexistent/").utf8)
        text = text.flatMap { $0 == 10 ? [13, 10] : [$0] }
        text.insert(contentsOf: [0xFF, 0xFE, 0x41, 13, 10], at: 0)
        let log = scratch.path("asan-crlf.txt")
        try Data(text).write(to: URL(fileURLWithPath: log))
        // The sample binary is not beside this copy either: nothing resolves, and the log comes back unchanged.
        let result = try Command.postmortem(["symbolicate", "--output", scratch.path("out.txt"), log])
        #expect(result.status == 0)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: scratch.path("out.txt")))) == text)
    }
}

/// A tombstone whose frames name a fixture library by path and build-id: resolved through `-d`.
@Suite("Symbolicate: Android tombstones")
struct TombstoneTests {
    @Test func framesResolveByModuleOffsetAndBuildID() throws {
        let scratch = try BadInputTests.Scratch()
        let buildID = try #require(try ObjectFileReader.read(path: Paths.fixture("sensors-gcc-dwarf5")).buildID).hex
        // debuggerd's layout (Android 12+), for a process that loaded the fixture as /data/local/tmp/sensors-gcc-dwarf5.
        let text = """
            *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
            Build fingerprint: 'generic/sdk_phone64_x86_64/emulator64_x86_64:12/SE1A.220203.002/8151212:userdebug/test-keys'
            ABI: 'x86_64'
            pid: 4242, tid: 4242, name: sensors  >>> /data/local/tmp/sensors-gcc-dwarf5 <<<
            signal 6 (SIGABRT), code -1 (SI_QUEUE), fault addr --------
            backtrace:
                  #00 pc 000000000005b8c8  /apex/com.android.runtime/lib64/bionic/libc.so (abort+168) (BuildId: 3c5fab9c1b7a0dbf0b9a4ea39a6d5ee4)
                  #01 pc 00000000000012e8  /data/local/tmp/sensors-gcc-dwarf5 (BuildId: \(buildID))
                  #02 pc 0000000000001358  /data/local/tmp/sensors-gcc-dwarf5 (BuildId: \(buildID))

            """
        let log = scratch.path("tombstone_00")
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let result = try Command.postmortem(["symbolicate", "-d", Paths.fixtures.path, log])
        #expect(result.status == 0, "\(result.standardError)")
        let frames = result.outputLines.filter { $0.contains("sensors-gcc-dwarf5 (") }
        // The pcs are used as printed (libunwindstack already moved them into the call).
        let expected = try Command.postmortem([
            "resolve", "-i", "--json", "-o", Paths.fixture("sensors-gcc-dwarf5"), "0x12e8", "0x1358"
        ])
        let chains = try expected.outputLines.map(ChainParser.postmortem)
        #expect(frames.count == chains.reduce(0) { $0 + $1.count })
        #expect(frames.first?.contains("(clamp) ./sensors.c:12:8 (inlined)") == true, "\(frames)")
        #expect(frames.contains { $0.contains("(sample_at+88) (BuildId: \(buildID)) ./sensors.c:32:12") }, "\(frames)")
        #expect(
            result.outputLines.contains {
                $0.hasSuffix("libc.so (abort+168) (BuildId: 3c5fab9c1b7a0dbf0b9a4ea39a6d5ee4)")
            },
            "frames of libraries not found stay as they were")
    }
}

/// Stackwalker output whose module is a fixture binary found below `-d`.
@Suite("Symbolicate: minidump stackwalk")
struct StackwalkTests {
    @Test func moduleOffsetsResolve() throws {
        let scratch = try BadInputTests.Scratch()
        // minidump_stackwalk's human layout for a process that loaded the fixture at 0x555555554000.
        let text = """
            Operating system: Linux
                              0.0.0 Linux 6.1.0 #1 SMP x86_64
            CPU: amd64
                 family 6 model 85 stepping 7
                 2 CPUs

            Crash reason:  SIGABRT
            Crash address: 0x0

            Thread 0 (crashed)
             0  libc.so.6 + 0x8aeec
                rip = 0x00007ffff7e5feec
                Found by: given as instruction pointer in context
             1  sensors-gcc-dwarf5 + 0x12e9
                rip = 0x00005555555562e9
                Found by: call frame info
             2  sensors-gcc-dwarf5 + 0x1359
                Found by: call frame info

            Loaded modules:
            0x555555554000 - 0x555555558fff  sensors-gcc-dwarf5  ???  (main)
            0x7ffff7dd5000 - 0x7ffff7fa9fff  libc.so.6  ???

            """
        let log = scratch.path("minidump.txt")
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let result = try Command.postmortem(["symbolicate", "-d", Paths.fixtures.path, log])
        #expect(result.status == 0, "\(result.standardError)")
        // Return addresses, looked up at -1: 0x12e8 and 0x1358.
        let expected = try Command.postmortem([
            "resolve", "-i", "--json", "-o", Paths.fixture("sensors-gcc-dwarf5"), "0x12e8", "0x1358"
        ])
        let chains = try expected.outputLines.map(ChainParser.postmortem)
        let frames = result.outputLines.filter { $0.contains("sensors-gcc-dwarf5!") }
        #expect(frames.count == chains.reduce(0) { $0 + $1.count })
        #expect(frames.first == " 1  sensors-gcc-dwarf5!clamp [sensors.c : 12] (inlined)", "\(frames)")
        #expect(frames.contains(" 1  sensors-gcc-dwarf5!sample_at [sensors.c : 32]"), "\(frames)")
        #expect(
            result.outputLines.contains(" 0  libc.so.6 + 0x8aeec")
                || result.outputLines.contains { $0.hasPrefix(" 0  libc.so.6!") })
    }

    @Test func machineReadableRowsResolve() throws {
        let scratch = try BadInputTests.Scratch()
        let text = """
            OS|Linux|0.0.0 Linux 6.1.0
            CPU|amd64|family 6 model 85 stepping 7|2
            Crash|SIGABRT|0x0|0
            Module|sensors-gcc-dwarf5||sensors-gcc-dwarf5|0123456789ABCDEF0123456789ABCDEF0|0x555555554000|0x555555558fff|1

            0|0|libc.so.6||||0x8aeec
            0|1|sensors-gcc-dwarf5||||0x12e9

            """
        let log = scratch.path("minidump-m.txt")
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let result = try Command.postmortem(["symbolicate", "-d", Paths.fixtures.path, log])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.contains("0|1|sensors-gcc-dwarf5|clamp|./sensors.c|12|"), "\(result.standardOutput)")
        #expect(
            result.outputLines.contains("0|1|sensors-gcc-dwarf5|sample_at|./sensors.c|32|0x59"),
            "\(result.standardOutput)")
        #expect(result.outputLines.contains("0|0|libc.so.6||||0x8aeec"), "rows of modules not found stay")
    }
}

/// Several logs at once: a directory, standard input, `--output`.
@Suite("Symbolicate: many logs")
struct ManyLogsTests {
    @Test func aDirectoryOfLogsAndStandardInput() throws {
        let scratch = try BadInputTests.Scratch()
        for name in ["crash.txt", "sensors"] {
            try FileManager.default.copyItem(
                atPath: Paths.packageRoot.appendingPathComponent("SampleCrashes/linux-c-sensors/\(name)").path,
                toPath: scratch.path(name))
        }
        try FileManager.default.copyItem(
            atPath: Paths.packageRoot.appendingPathComponent("SampleCrashes/linux-c-sensors/.debug").path,
            toPath: scratch.path(".debug"))
        try FileManager.default.copyItem(
            atPath: Paths.packageRoot.appendingPathComponent(SymbolicateTests.asan).path,
            toPath: scratch.path("asan.txt"))
        try FileManager.default.copyItem(
            atPath: Paths.packageRoot.appendingPathComponent("SampleCrashes/linux-c-asan/readings").path,
            toPath: scratch.path("readings"))
        let result = try Command.postmortem(["symbolicate", "--json", scratch.url.path])
        #expect(result.status == 0)
        // The binaries are not logs: each log in the directory gives one report, in name order.
        let formats = result.outputLines.compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["format"] as? String
        }
        #expect(formats == ["sanitizer", "glibc-backtrace"])
        #expect(
            result.errorLines.filter {
                $0.hasSuffix(
                    ": an ELF binary, not a crash log; resolve addresses in it with postmortem resolve -o FILE")
            }.count == 2,
            "readings and sensors are named as binaries: \(result.standardError)")

        let input = try String(contentsOfFile: scratch.path("asan.txt"), encoding: .utf8)
        let piped = try Command.postmortem(
            ["symbolicate", "-d", scratch.url.path, "--output", scratch.path("out.txt"), "-"], input: input)
        #expect(piped.status == 0)
        #expect(
            try String(contentsOfFile: scratch.path("out.txt"), encoding: .utf8).contains(
                "in last_value ./readings.c:25:12"))
    }

    @Test func ipsFramesNamingMissingImagesAreKeptWithAWarning() throws {
        let scratch = try BadInputTests.Scratch()
        let log = scratch.path("odd.ips")
        let text =
            #"{"bug_type":"309","name":"App"}"# + "\n"
            + #"{"threads":[{"triggered":true,"frames":[{"imageOffset":1984,"imageIndex":7},{"imageOffset":99999999999999999999999,"imageIndex":0}]}],"usedImages":[{"base":4294967296,"size":4096,"uuid":"00000000-0000-0000-0000-000000000000","name":"App"}]}"#
            + "\n"
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let result = try Command.postmortem(["symbolicate", log])
        #expect(result.status == 0)
        #expect(result.standardOutput == text, "nothing resolves; the report comes back as it was")
        #expect(
            result.errorLines.contains { $0.contains("a frame names image 7, past the 1 images listed") },
            "\(result.standardError)")
    }
}
