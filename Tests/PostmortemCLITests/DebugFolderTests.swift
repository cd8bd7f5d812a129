import Foundation
import TestSupport
import Testing

/// Debug files made the usual way (`objcopy --only-keep-debug app app.debug; strip app; objcopy
/// --add-gnu-debuglink=app.debug app; mv app.debug dbg/`) are found below `-d dbg`, by debug link (CRC checked) or
/// build-id, at any depth: `resolve -o app -d dbg` and a core of the stripped program answer as llvm-symbolizer does
/// from the debug file.
@Suite("Debug files below -d")
struct DebugFolderTests {
    /// The stripped `threads` program of the core tests and its library, their debug files moved below `dbg/deep/er`.
    static func strippedProgram() throws -> String {
        let directory = try CrashingPrograms.directory.get()
        let scratch = Fixtures.scratchDirectory("debug-folder")
        try FileManager.default.createDirectory(atPath: scratch + "/dbg/deep/er", withIntermediateDirectories: true)
        for name in ["threads", "libchain.so", "with-default-signals"] {
            try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: scratch + "/" + name)
        }
        for name in ["threads", "libchain.so"] {
            for command in [
                ["objcopy", "--only-keep-debug", name, name + ".debug"], ["strip", name],
                ["objcopy", "--add-gnu-debuglink=\(name).debug", name], ["mv", name + ".debug", "dbg/deep/er/"]
            ] {
                let result = try Command.run("/usr/bin/env", command, currentDirectory: URL(fileURLWithPath: scratch))
                #expect(result.status == 0, "\(command): \(result.standardError)")
            }
        }
        return scratch
    }

    static func llvmChain(_ debugFile: String, _ address: String) throws -> [ComparableFrame] {
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let output = try Command.run(symbolizer, ["--inlining", "--output-style=JSON", "--obj=" + debugFile, address])
        return try ChainParser.llvmSymbolizer(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A `-d` that names no folder (mistyped, or the debug file itself) is said once on stderr, whatever the command,
    /// and the run goes on with the rest: here the stripped binary then answers without its debug file's lines.
    @Test func aDebugPathThatIsNoFolderIsSaid() throws {
        let scratch = try Self.strippedProgram()
        let address = try #require(
            try Fixtures.run("nm", [scratch + "/dbg/deep/er/threads.debug"]).split(separator: "\n")
                .first { $0.hasSuffix(" T main") }?.split(separator: " ").first.map { "0x" + $0 })
        let missing = scratch + "/dgb", file = scratch + "/dbg/deep/er/threads.debug"
        let wrong = try Command.postmortem(["resolve", "-o", scratch + "/threads", "-d", missing, "-d", file, address])
        #expect(wrong.status == 0, "\(wrong.standardError)")
        // Said before anything is looked for; then what the search without them found.
        #expect(
            wrong.errorLines == [
                "postmortem: -d \(missing): no such folder",
                "postmortem: -d \(file): not a folder (give the folder that holds it)",
                "postmortem: \(scratch)/threads: no debug information found; using the symbol table only"
            ], "\(wrong.standardError)")
        #expect(!wrong.standardOutput.contains("threads.c:"), "\(wrong.standardOutput)")
        let right = try Command.postmortem(["resolve", "-o", scratch + "/threads", "-d", scratch + "/dbg", address])
        #expect(right.errorLines.isEmpty && right.standardOutput.contains("threads.c:"), "\(right.standardError)")
        // A log of several reports, and `group`: the line once, the output as without the folder.
        let log = "SampleCrashes/linux-groups"
        for command in [["symbolicate", "--no-cache"], ["group", "--no-cache"]] {
            let plain = try Command.postmortem(command + [log])
            let told = try Command.postmortem(command + ["-d", missing, log])
            #expect(told.standardOutput == plain.standardOutput, "\(command)")
            #expect(
                told.errorLines.filter { $0.contains(missing) } == ["postmortem: -d \(missing): no such folder"],
                "\(command): \(told.standardError)")
        }
    }

    @Test func resolveFindsTheDebugFileByItsLink() throws {
        let scratch = try Self.strippedProgram()
        let address = try #require(
            try Fixtures.run("nm", [scratch + "/dbg/deep/er/threads.debug"]).split(separator: "\n")
                .first { $0.hasSuffix(" main") }.map { "0x" + $0.prefix { $0 != " " } })
        let result = try Command.run(
            Paths.postmortem,
            ["resolve", "--json", "--no-cache", "-i", "-o", scratch + "/threads", "-d", scratch + "/dbg", address])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.contains("threads.c"), "file and line from the debug file: \(result.standardOutput)")
        let expected = try Self.llvmChain(scratch + "/dbg/deep/er/threads.debug", address)
        #expect(
            expected.first?.file.map {
                result.standardOutput.contains("\"line\": \(expected.first!.line)")
                    && result.standardOutput.contains($0)
            } == true)
    }

    @Test func aCoreOfTheStrippedProgram() throws {
        let scratch = try Self.strippedProgram()
        let core = try #require(
            try CrashingPrograms.gdbCore(of: CrashingPrograms.Crash(program: "threads"), in: scratch))
        let result = try Command.run(
            Paths.postmortem, ["symbolicate", "--json", "--no-cache", "-d", scratch + "/dbg", core])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            try Self.framesEqualLLVMSymbolizer(result) { scratch + "/dbg/deep/er/\($0).debug" } >= 4,
            "frames of the program and its library checked")
    }

    /// Checks each frame of the program and its library in a core's `--json` report against llvm-symbolizer's answer
    /// from `debugFile(image)` (files, lines and columns: a core's frames prefer the DWARF name to the symbol table's
    /// `.constprop` one); how many were checked.
    static func framesEqualLLVMSymbolizer(_ result: CommandResult, debugFile: (String) -> String) throws -> Int {
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        var checked = 0
        for thread in CoreFileTests.threads(report) {
            for frame in thread["frames"] as? [[String: Any]] ?? [] {
                guard let image = frame["image"] as? String, ["threads", "libchain.so"].contains(image),
                    let lookup = frame["lookupAddress"] as? String
                else { continue }
                let symbols = (frame["symbols"] as? [[String: Any]] ?? []).map { symbol in
                    ComparableFrame(
                        function: symbol["function"] as? String, file: symbol["file"] as? String,
                        line: symbol["line"] as? Int ?? 0, column: symbol["column"] as? Int ?? 0)
                }
                let expected = try llvmChain(debugFile(image), lookup)
                #expect(
                    symbols.map { [$0.file, "\($0.line):\($0.column)"] }
                        == expected.map { [$0.file, "\($0.line):\($0.column)"] },
                    "\(image) at \(lookup)")
                checked += 1
            }
        }
        return checked
    }

    /// Debug files named at will (`dbg/symbols/program.sym`, `dbg/lib-1.2.dbg`), no debug link, no `.build-id` tree:
    /// found below `-d` by their build-id alone, and answering as llvm-symbolizer answers from them.
    @Test func aDebugFileNamedAtWillIsFoundByItsBuildID() throws {
        let directory = try CrashingPrograms.directory.get()
        let scratch = Fixtures.scratchDirectory("debug-folder-renamed")
        try FileManager.default.createDirectory(atPath: scratch + "/dbg/symbols", withIntermediateDirectories: true)
        let renamed = ["threads": "dbg/symbols/program.sym", "libchain.so": "dbg/lib-1.2.dbg"]
        for name in ["threads", "libchain.so", "with-default-signals"] {
            try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: scratch + "/" + name)
        }
        for (name, debugFile) in renamed {
            for command in [["objcopy", "--only-keep-debug", name, debugFile], ["strip", name]] {
                let result = try Command.run("/usr/bin/env", command, currentDirectory: URL(fileURLWithPath: scratch))
                #expect(result.status == 0, "\(command): \(result.standardError)")
            }
        }
        let core = try #require(
            try CrashingPrograms.gdbCore(of: CrashingPrograms.Crash(program: "threads"), in: scratch))
        let result = try Command.run(
            Paths.postmortem, ["symbolicate", "--json", "--no-cache", "-d", scratch + "/dbg", core])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            try Self.framesEqualLLVMSymbolizer(result) { scratch + "/" + (renamed[$0] ?? $0) } >= 4,
            "frames of the program and its library checked")
    }

    /// The unstripped build kept below `-d` (`dbg/threads`) for the stripped one that ran: its DWARF answers, on the
    /// command line and in a posted core alike, as llvm-symbolizer answers from it.
    @Test func anUnstrippedCopyBelowDIsTheStrippedBinarysDebugFile() throws {
        let directory = try CrashingPrograms.directory.get()
        let scratch = Fixtures.scratchDirectory("debug-folder-copy")
        try FileManager.default.createDirectory(atPath: scratch + "/dbg/build", withIntermediateDirectories: true)
        for name in ["threads", "libchain.so", "with-default-signals"] {
            try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: scratch + "/" + name)
        }
        for name in ["threads", "libchain.so"] {
            try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: scratch + "/dbg/build/" + name)
            let strip = try Command.run(
                "/usr/bin/env", ["strip", name], currentDirectory: URL(fileURLWithPath: scratch))
            #expect(strip.status == 0, "\(strip.standardError)")
        }
        let core = try #require(
            try CrashingPrograms.gdbCore(of: CrashingPrograms.Crash(program: "threads"), in: scratch))
        let result = try Command.run(
            Paths.postmortem, ["symbolicate", "--json", "--no-cache", "-d", scratch + "/dbg", core])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            try Self.framesEqualLLVMSymbolizer(result) { scratch + "/dbg/build/" + $0 } >= 4,
            "frames of the program and its library checked")

        let server = try ServerProcess(
            arguments: ["-d", scratch + "/dbg"], environment: ["POSTMORTEM_CACHE_DIR": scratch + "/cache"],
            scratch: scratch)
        let posted = try HTTP.send("POST", server.url + "/symbolicate", bodyFile: core)
        #expect(posted.status == 200)
        #expect(posted.body == result.standardOutput)
    }
}
