import Foundation
import TestSupport
import Testing

/// A library built without unwind tables has its call-frame information only in `-g`'s `.debug_frame`, which `strip`
/// moves to the separate debug file: a core of a crash in it walks past it once that debug file is found (`-d`), as
/// eu-stack walks it given the same folder, and stops (saying why) without it.
@Suite("Call-frame information from a separate debug file")
struct DebugFrameTests {
    @Test func aStrippedLibraryWalksByItsDebugFilesDebugFrame() throws {
        let helpers = try CrashingPrograms.directory.get()
        let directory = Fixtures.scratchDirectory("debug-frame")
        let sources = CrashingPrograms.sources
        let script = """
            set -e
            gcc -O1 -g -fno-asynchronous-unwind-tables -fno-unwind-tables -fomit-frame-pointer -fPIC -shared -o libnocfi.so '\(sources)/nocfi.c'
            mkdir dbg
            objcopy --only-keep-debug libnocfi.so dbg/libnocfi.so.debug
            strip --strip-debug libnocfi.so
            objcopy --add-gnu-debuglink=dbg/libnocfi.so.debug libnocfi.so
            gcc -O2 -g -o scan '\(sources)/scan.c' -L. -lnocfi -Wl,-rpath,'$ORIGIN'
            """
        let build = try Command.run("/bin/sh", ["-c", script], currentDirectory: URL(fileURLWithPath: directory))
        try #require(build.status == 0, "\(build.standardError)")
        let sections = try Fixtures.run("readelf", ["-SW", directory + "/libnocfi.so"])
        #expect(!sections.contains(".debug_frame"), "the library keeps no .debug_frame")
        #expect(try Fixtures.run("readelf", ["-SW", directory + "/dbg/libnocfi.so.debug"]).contains(".debug_frame"))

        // `scan x` faults in poke_after_fill, which keeps locals below its return address.
        let core = directory + "/core"
        _ = try Command.run(
            helpers + "/with-default-signals",
            [
                "gdb", "-batch", "-nx", "-iex", "set debuginfod enabled off", "-ex", "run", "-ex",
                "generate-core-file \(core)",
                "--args", directory + "/scan", "x"
            ], currentDirectory: URL(fileURLWithPath: directory))
        try #require(FileManager.default.fileExists(atPath: core))

        let alone = try CoreFileTests.report(core: core, executable: directory + "/scan", extra: ["--offline"])
        let aloneThread = try #require(CoreFileTests.threads(alone).first)
        #expect(CoreFileTests.addresses(aloneThread).count == 1)
        #expect((aloneThread["stopReason"] as? String)?.contains("no call-frame information") == true, "\(aloneThread)")

        let found = try CoreFileTests.report(
            core: core, executable: directory + "/scan", extra: ["--offline", "-d", directory + "/dbg"])
        let thread = try #require(CoreFileTests.threads(found).first)
        let frames = try #require(thread["frames"] as? [[String: Any]])
        #expect(frames.map { $0["trust"] as? String }.prefix(2) == ["context", "cfi"])
        #expect((frames.dropFirst().first?["symbols"] as? [[String: Any]])?.last?["function"] as? String == "main")
        let theirs = try CoreFileTests.euStack([
            "--core", core, "-e", directory + "/scan", "--debuginfo-path=\(directory)/dbg"
        ])
        let id = try #require(thread["id"] as? Int)
        #expect(CoreFileTests.addresses(thread) == theirs[id], "eu-stack: \(theirs)")
        #expect((theirs[id]?.count ?? 0) >= 4)
    }
}
