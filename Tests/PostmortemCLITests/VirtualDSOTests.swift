import Foundation
import TestSupport
import Testing

/// A crash inside the kernel's vDSO (`clock_gettime` storing through a bad pointer): no file backs the vDSO, so its
/// image is read from the core's memory. Its frame is named from that image's symbols and its caller found by its
/// `.eh_frame`, as eu-stack finds it; the image's range and build-id are eu-unstrip's, and the name is the one
/// llvm-symbolizer gives for the vDSO gdb dumps from the same core.
@Suite("The vDSO")
struct VirtualDSOTests {
    @Test func aCrashInTheVDSOIsNamedAndUnwoundFromItsImageInMemory() throws {
        let directory = try CrashingPrograms.directory.get()
        let crash = CrashingPrograms.Crash(program: "clock")
        let executable = directory + "/clock"
        let unstrip = try #require(
            Paths.executable(named: "eu-unstrip"), "eu-unstrip (Debian's elfutils) is needed; make test installs it")
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let cores = try CoreFileTests.cores(of: crash)
        for (kind, core) in cores {
            // eu-unstrip's module line of the vDSO: `0xSTART+0xSIZE BUILDID@0x… . - linux-vdso.so.1`.
            let modules = try Command.run(unstrip, ["-n", "--core", core])
            let line = try #require(
                modules.outputLines.first { $0.hasSuffix(" linux-vdso.so.1") }, "\(kind) core: eu-unstrip lists no vDSO"
            )
            let match = try #require(line.firstMatch(of: /^0x([0-9a-f]+)\+0x([0-9a-f]+) ([0-9a-f]+)@/))
            let (start, size) = (try #require(UInt64(match.1, radix: 16)), try #require(UInt64(match.2, radix: 16)))

            let report = try CoreFileTests.report(core: core, executable: executable)
            let images = report["images"] as? [[String: Any]] ?? []
            let image = try #require(images.first { $0["path"] as? String == "[vdso]" }, "\(kind) core: \(images)")
            #expect(image["name"] as? String == "linux-vdso.so.1")
            #expect(image["id"] as? String == String(match.3), "\(kind) core")
            #expect(image["loadAddress"] as? String == "0x" + String(start, radix: 16), "\(kind) core")

            let thread = try #require(CoreFileTests.threads(report).first)
            let frames = thread["frames"] as? [[String: Any]] ?? []
            let expected = try CoreFileTests.euStack(core: core, executable: executable)
            #expect(CoreFileTests.addresses(thread) == expected[thread["index"] as? Int ?? -1], "\(kind) core")
            #expect(frames.first?["image"] as? String == "linux-vdso.so.1", "\(kind) core")
            // Its caller is found by the vDSO's own CFI, not by a frame pointer.
            #expect(
                frames.dropFirst().allSatisfy { $0["trust"] as? String == "cfi" },
                "\(kind) core: \(frames.map { $0["trust"] ?? "" })")

            // The name: llvm-symbolizer's, on the vDSO as gdb dumps it from this core.
            let dumped = Fixtures.scratchDirectory("vdso-image") + "/vdso.so"
            _ = try Command.run(
                "/usr/bin/env",
                [
                    "gdb", "-batch", "-nx", "-ex", "set debuginfod enabled off",
                    "-ex", "dump memory \(dumped) 0x\(String(start, radix: 16)) 0x\(String(start + size, radix: 16))",
                    executable, core
                ])
            let offset = try #require(frames.first?["lookupAddress"] as? String)
            let named = try Command.run(symbolizer, ["--obj=" + dumped, offset]).outputLines.first
            let symbols = frames.first?["symbols"] as? [[String: Any]] ?? []
            #expect(
                named != nil && symbols.first?["function"] as? String == named,
                "\(kind) core: \(symbols) against \(named ?? "nothing")")
        }
    }
}
