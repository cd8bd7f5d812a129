import Foundation
import Glibc
import TestSupport
import Testing

/// What README says of the commands that no other suite runs: `cache info` and `cache clear`, where the index cache
/// lives when nothing names it, `resolve` answering standard input line by line, and a debug file found below a
/// root at the binary's own folder.
@Suite("Command claims")
struct CommandClaimsTests {
    static let fixture = "Tests/Fixtures/bin/sensors-gcc-dwarf5"

    /// The answer the fixture gives at 0x12a0 with the cache off: what every cached run must print.
    static func expectedAnswer() throws -> String {
        try Command.postmortem(["resolve", "--no-cache", "-o", fixture, "0x12a0"]).standardOutput
    }

    @Test("cache info lists what a run wrote, with size and limit; cache clear removes it")
    func cacheInfoAndClear() throws {
        let cache = Fixtures.scratchDirectory("cache-commands")
        let environment = ["POSTMORTEM_CACHE_DIR": cache, "POSTMORTEM_CACHE_LIMIT": "64M"].merging(
            Command.foregroundCacheWrites
        ) { $1 }
        let first = try Command.run(
            Paths.postmortem, ["resolve", "-o", Self.fixture, "0x12a0"], environment: environment)
        #expect(first.standardOutput == (try Self.expectedAnswer()))
        let written = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".pmindex") }
        #expect(written.count == 1, "\(written)")
        let info = try Command.run(Paths.postmortem, ["cache", "info"], environment: environment)
        #expect(info.status == 0)
        #expect(info.outputLines.first?.hasPrefix("\(cache): 1 index file, ") == true, "\(info.standardOutput)")
        #expect(info.outputLines.first?.hasSuffix(" of 64.0 MiB") == true, "\(info.standardOutput)")
        #expect(
            info.outputLines.contains {
                $0.contains(written[0]) && $0.hasSuffix(Paths.packageRoot.path + "/" + Self.fixture)
            },
            "each file with the binary it indexes\n\(info.standardOutput)")
        let clear = try Command.run(Paths.postmortem, ["cache", "clear"], environment: environment)
        #expect(clear.status == 0)
        // The index file and the record of where its binary was found.
        #expect(clear.standardOutput == "\(cache): removed 2 files\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".pmindex") }.isEmpty)
        let after = try Command.run(Paths.postmortem, ["cache", "info"], environment: environment)
        #expect(after.outputLines.first?.hasPrefix("\(cache): 0 index files") == true, "\(after.standardOutput)")
    }

    @Test("Without POSTMORTEM_CACHE_DIR the cache is $XDG_CACHE_HOME/postmortem, else ~/.cache/postmortem")
    func cacheFolderFallbacks() throws {
        let home = Fixtures.scratchDirectory("cache-home")
        let xdg = Fixtures.scratchDirectory("cache-xdg")
        let cases: [(environment: [String: String], folder: String)] = [
            (["POSTMORTEM_CACHE_DIR": "", "XDG_CACHE_HOME": xdg, "HOME": home], xdg + "/postmortem"),
            (["POSTMORTEM_CACHE_DIR": "", "XDG_CACHE_HOME": "", "HOME": home], home + "/.cache/postmortem")
        ]
        for (environment, folder) in cases {
            let run = try Command.run(
                Paths.postmortem, ["resolve", "-o", Self.fixture, "0x12a0"],
                environment: environment.merging(Command.foregroundCacheWrites) { $1 })
            #expect(run.standardOutput == (try Self.expectedAnswer()), "\(run.standardError)")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            #expect(files.contains { $0.hasSuffix(".pmindex") }, "an index file in \(folder): \(files)")
            let info = try Command.run(Paths.postmortem, ["cache", "info"], environment: environment)
            #expect(info.outputLines.first?.hasPrefix(folder + ": 1 index file") == true, "\(info.standardOutput)")
        }
    }

    @Test("resolve answers each address of standard input as it arrives, before the next is written")
    func standardInputLineByLine() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.postmortem)
        process.arguments = ["resolve", "--no-cache", "-o", Self.fixture]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let reader = output.fileHandleForReading.fileDescriptor
        for address in ["0x12a0", "0x12e8", "0x1290"] {
            let expected = try Command.postmortem(["resolve", "--no-cache", "-o", Self.fixture, address]).standardOutput
            try #require(
                input.fileHandleForWriting.writeIgnoringBrokenPipe(Data((address + "\n").utf8)),
                "resolve stopped reading standard input before \(address)")
            // The answer must come while the input is still open: read it with a deadline.
            var answer: [UInt8] = []
            let deadline = Date().addingTimeInterval(10)
            while !answer.contains(UInt8(ascii: "\n")), Date() < deadline {
                var poll = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                guard Glibc.poll(&poll, 1, 100) > 0 else { continue }
                var byte: UInt8 = 0
                if read(reader, &byte, 1) == 1 { answer.append(byte) }
            }
            #expect(
                String(decoding: answer, as: UTF8.self) == expected, "\(address) answered before the next was written")
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("A debug file named by .gnu_debuglink is found below a -d root at the binary's own folder, checked by CRC")
    func debugFileBelowRootAtBinaryFolder() throws {
        let scratch = Fixtures.scratchDirectory("debuglink-root")
        let binaryFolder = scratch + "/opt/app/bin"
        let root = scratch + "/debug-root"
        try FileManager.default.createDirectory(atPath: binaryFolder, withIntermediateDirectories: true)
        let unstripped = Paths.packageRoot.path + "/" + Self.fixture
        let debugFile = scratch + "/gauge.debug"
        let binary = binaryFolder + "/gauge"
        for (tool, arguments) in [
            ("objcopy", ["--only-keep-debug", unstripped, debugFile]),
            ("objcopy", ["--strip-debug", "--remove-section=.note.gnu.build-id", unstripped, binary]),
            ("objcopy", ["--add-gnu-debuglink=" + debugFile, binary])
        ] {
            let run = try Command.run("/usr/bin/env", [tool] + arguments)
            try #require(run.status == 0, "\(tool) \(arguments): \(run.standardError)")
        }
        // ROOT + the binary's absolute folder + the debug link's name, as gdb looks for it.
        let mirrored = root + binaryFolder
        try FileManager.default.createDirectory(atPath: mirrored, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: debugFile, toPath: mirrored + "/gauge.debug")
        let expected = try Self.expectedAnswer().replacingOccurrences(of: "(in sensors-gcc-dwarf5)", with: "(in gauge)")
        let found = try Command.postmortem(["resolve", "--no-cache", "-d", root, "-o", binary, "0x12a0"])
        #expect(found.standardOutput == expected, "\(found.standardError)")
        let withoutRoot = try Command.postmortem(["resolve", "--no-cache", "-o", binary, "0x12a0"])
        #expect(withoutRoot.standardOutput != expected, "the root is what finds it")
        // A file of that name whose CRC differs is refused.
        try Data("not the debug file".utf8).write(to: URL(fileURLWithPath: mirrored + "/gauge.debug"))
        let wrong = try Command.postmortem(["resolve", "--no-cache", "-d", root, "-o", binary, "0x12a0"])
        #expect(wrong.standardOutput != expected)
        #expect(wrong.standardError.contains(mirrored + "/gauge.debug"), "\(wrong.standardError)")
    }
}
