import Foundation
import TestSupport
import Testing

/// `serve --symbols DIR` as a Breakpad symbol server: minidump-stackwalk, pointed at it with `--symbols-url`, walks and
/// names a Crashpad dump exactly as with dump_syms' store on disk; files missing from the store are written from the
/// binaries below `-d`; uploads are checked and stored.
@Suite(.serialized)
struct SymbolServerTests {
    /// Frames of every thread as minidump-stackwalk reports them: module, offset, function, file, line, trust.
    static func frames(_ report: [String: Any]) -> [String] {
        (report["threads"] as? [[String: Any]] ?? []).flatMap { thread in
            (thread["frames"] as? [[String: Any]] ?? []).map { frame in
                ["module", "module_offset", "function", "file", "line", "trust"].map { "\(frame[$0] ?? "-")" }.joined(
                    separator: " ")
            }
        }
    }

    @Test func minidumpStackwalkWalksWithTheServerAsItsSymbolsURL() throws {
        let directory = try CrashingPrograms.directory.get()
        let dump = try CrashpadDumps.dump(of: CrashingPrograms.Crash(program: "threads"), in: directory)
        let binaries = ["threads", "libchain.so"].map { directory + "/" + $0 }
        let theirs = Self.frames(
            try CrashpadDumps.stackwalk(dump, symbols: try CrashpadDumps.symbolStore(of: binaries)))

        let scratch = Fixtures.scratchDirectory("symbol-server")
        let store = scratch + "/store"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        let server = try ServerProcess(
            arguments: ["--symbols", store, "-d", directory, "--offline"],
            environment: ["POSTMORTEM_CACHE_DIR": scratch + "/cache"], scratch: scratch)
        defer { _ = server.stop() }
        let stackwalk = try Command.run(
            try CrashpadDumps.oracle("minidump-stackwalk"),
            ["--json", "--symbols-url", server.url + "/", "--symbols-cache", scratch + "/client-cache", dump])
        try #require(stackwalk.status == 0, "\(stackwalk.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(stackwalk.standardOutput.utf8)) as? [String: Any])
        #expect(Self.frames(report) == theirs, "server log: \(server.log)")
        #expect(Self.frames(report).contains { $0.contains("sum_chain") })
        // What was written on demand stays in the store, under the path symbol servers use.
        for binary in binaries {
            let id = try DebugIDs.elf(binary)
            let name = URL(fileURLWithPath: binary).lastPathComponent
            #expect(FileManager.default.fileExists(atPath: "\(store)/\(name)/\(id)/\(name).sym"))
        }
    }

    /// The Symbolication API answers a module whose binary the server lacks from the module's symbol file in a store, as
    /// Tecken does: for a C program, every frame as the server with the binary answers it (function, offset, file, line,
    /// inlined frames; symbol files hold no columns, and this API gives none).
    @Test func symbolicationAPIAnswersFromTheStoreAsFromTheBinary() throws {
        let scratch = Fixtures.scratchDirectory("symbol-server-v5")
        let fixture = "sensors-gcc-dwarf5"
        let binaries = scratch + "/bin"
        try FileManager.default.createDirectory(atPath: binaries, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.fixture(fixture), toPath: binaries + "/" + fixture)
        let written = try Command.postmortem(["dump-syms", "--store", scratch + "/store", binaries + "/" + fixture])
        try #require(written.status == 0, "\(written.standardError)")
        let id = try DebugIDs.elf(binaries + "/" + fixture)
        let offsets = try LineTableSampler.sample(60, from: binaries + "/" + fixture, seed: 0x5E5)
        let body =
            "{\"memoryMap\": [[\"\(fixture)\", \"\(id)\"]], \"stacks\": [["
            + offsets.map { "[0, \($0)]" }.joined(separator: ", ") + "]]}"

        let withBinary = try ServerProcess(
            arguments: ["-d", binaries, "--offline", "--no-cache"], environment: [:], scratch: scratch + "/a")
        defer { _ = withBinary.stop() }
        let withStore = try ServerProcess(
            arguments: ["--symbols", scratch + "/store", "--offline", "--no-cache"], environment: [:],
            scratch: scratch + "/b")
        defer { _ = withStore.stop() }
        let expected = try HTTP.send("POST", withBinary.url + "/symbolicate/v5", body: body)
        let answer = try HTTP.send("POST", withStore.url + "/symbolicate/v5", body: body)
        #expect(answer.status == 200)
        // dump_syms writes a path joined with a compile directory of `.` without the `./` (as this fixture was built,
        // with its build path mapped to `.`): the one difference there is to allow.
        #expect(answer.body == expected.body.replacingOccurrences(of: "\"./", with: "\""))
        #expect(
            answer.body.contains("\"\(fixture)/\(id)\": true") && answer.body.contains("\"inlines\""),
            "\(answer.body.prefix(600))")
    }

    @Test func storedFilesAreServedAsTheyAre() throws {
        let scratch = Fixtures.scratchDirectory("symbol-server-stored")
        let store = scratch + "/store"
        let sym = try DumpSymsTests.theirs([Paths.fixture("inventory-gcc")]).text
        let id = String(sym.prefix { $0 != "\n" }.split(separator: " ")[3])
        try FileManager.default.createDirectory(
            atPath: "\(store)/inventory-gcc/\(id)", withIntermediateDirectories: true)
        try sym.write(toFile: "\(store)/inventory-gcc/\(id)/inventory-gcc.sym", atomically: true, encoding: .utf8)
        let server = try ServerProcess(
            arguments: ["--symbols", store, "--offline"], environment: ["POSTMORTEM_CACHE_DIR": scratch + "/cache"],
            scratch: scratch)
        defer { _ = server.stop() }
        let served = try HTTP.send("GET", server.url + "/inventory-gcc/\(id)/inventory-gcc.sym?code_file=inventory-gcc")
        #expect(served.status == 200)
        #expect(served.body == sym)
        // A module not in the store, with no binary to write it from; a path that names no symbol file.
        let missing = try HTTP.send(
            "GET", server.url + "/inventory-gcc/\(String(repeating: "0", count: 33))/inventory-gcc.sym")
        #expect(missing.status == 404 && missing.body.contains("no symbol file of inventory-gcc"))
        let wrong = try HTTP.send("GET", server.url + "/inventory-gcc/\(id)/other.sym")
        #expect(wrong.status == 400)
        let notAnID = try HTTP.send("GET", server.url + "/inventory-gcc/xyz/inventory-gcc.sym")
        #expect(notAnID.status == 400 && notAnID.body.contains("not a Breakpad debug id"))
    }

    /// `POST /upload` takes a symbol file or a binary, as the body or as symupload's `symbol_file` form part.
    @Test func uploadsAreCheckedAndStored() throws {
        let scratch = Fixtures.scratchDirectory("symbol-server-upload")
        let store = scratch + "/store"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        let server = try ServerProcess(
            arguments: ["--symbols", store, "--offline"], environment: ["POSTMORTEM_CACHE_DIR": scratch + "/cache"],
            scratch: scratch)
        defer { _ = server.stop() }

        let symFile = scratch + "/libgeometry.sym"
        try DumpSymsTests.theirs([Paths.fixture("libgeometry.so")]).text.write(
            toFile: symFile, atomically: true, encoding: .utf8)
        let geometryID = try DebugIDs.elf(Paths.fixture("libgeometry.so"))
        let asBody = try HTTP.send("POST", server.url + "/upload", bodyFile: symFile)
        #expect(
            asBody.status == 200 && asBody.body.contains("libgeometry.so/\(geometryID)/libgeometry.so.sym"),
            "\(asBody.body)")

        let sensors = Paths.fixture("sensors-clang-dwarf5")
        let asForm = try HTTP.send("POST", server.url + "/upload", extra: ["-F", "symbol_file=@\(sensors)"])
        #expect(asForm.status == 200, "\(asForm.body)")
        let written = "\(store)/sensors-clang-dwarf5/\(try DebugIDs.elf(sensors))/sensors-clang-dwarf5.sym"
        let ours = try String(contentsOfFile: written, encoding: .utf8)
        DumpSymsTests.expectAgreement(
            ours: ours, theirs: try DumpSymsTests.theirs([sensors]), label: "uploaded sensors")

        let unnamed = try HTTP.send("POST", server.url + "/upload", bodyFile: sensors)
        #expect(unnamed.status == 400 && unnamed.body.contains("name the uploaded binary"))
        let garbage = try HTTP.send("POST", server.url + "/upload", body: "hello\n")
        #expect(garbage.status == 400 && garbage.body.contains("neither a Breakpad symbol file"))
        let badModule = try HTTP.send("POST", server.url + "/upload", body: "MODULE Linux x86_64 nothex ../../etc\n")
        #expect(badModule.status == 400)
        let files = try FileManager.default.subpathsOfDirectory(atPath: store).filter {
            $0.hasSuffix(".sym") || $0.contains(".incoming") || $0.contains(".tmp-")
        }
        #expect(
            Set(files) == [
                "libgeometry.so/\(geometryID)/libgeometry.so.sym",
                "sensors-clang-dwarf5/\(try DebugIDs.elf(sensors))/sensors-clang-dwarf5.sym"
            ])
    }
}
