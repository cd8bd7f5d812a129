import Foundation
import Testing
import TestSupport

/// The tests' threaded C crash (its library linked in, statically) cross-built for AArch64 with gcc-aarch64-linux-gnu
/// and run under qemu-user, and the core qemu writes of it (no list of mapped files, no code).
enum AArch64Crash {
    /// The folder holding `threads` and its core, and the core's path.
    static func threadsCore() throws -> (directory: String, core: String) {
        let compiler = try #require(Paths.executable(named: "aarch64-linux-gnu-gcc"), "gcc-aarch64-linux-gnu is needed; make test installs it")
        let qemu = try #require(Paths.executable(named: "qemu-aarch64"), "qemu-user is needed; make test installs it")
        let programs = try CrashingPrograms.directory.get()
        let scratch = Fixtures.scratchDirectory("aarch64-core")
        let sources = CrashingPrograms.sources
        let build = try Command.run(compiler, ["-O2", "-g", "-fomit-frame-pointer", "-static", "-pthread", "-o", "threads",
                                               "\(sources)/threads.c", "\(sources)/chain.c"], currentDirectory: URL(fileURLWithPath: scratch))
        try #require(build.status == 0, "\(build.standardError)")
        _ = try Command.run("/bin/sh", ["-c", "ulimit -c unlimited; exec '\(programs)/with-default-signals' '\(qemu)' ./threads"],
                            currentDirectory: URL(fileURLWithPath: scratch))
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: scratch).first { $0.hasPrefix("qemu_") && $0.hasSuffix(".core") },
                                "qemu wrote no core")
        // qemu ends by raising the signal itself: the kernel's core of qemu, when this machine writes one, is not wanted.
        try? FileManager.default.removeItem(atPath: scratch + "/core")
        return (scratch, scratch + "/" + name)
    }
}
