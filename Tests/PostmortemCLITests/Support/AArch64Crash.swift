import Foundation
import TestSupport
import Testing

/// The tests' threaded C crash (its library linked in, statically) cross-built for AArch64 with gcc-aarch64-linux-gnu
/// and run under qemu-user, and the core qemu writes of it (no list of mapped files, no code).
enum AArch64Crash {
    /// The folder holding `threads` and its core, and the core's path.
    static func threadsCore() throws -> (directory: String, core: String) {
        let compiler = try #require(
            Paths.executable(named: "aarch64-linux-gnu-gcc"), "gcc-aarch64-linux-gnu is needed; make test installs it")
        let qemu = try #require(Paths.executable(named: "qemu-aarch64"), "qemu-user is needed; make test installs it")
        let programs = try CrashingPrograms.directory.get()
        let scratch = Fixtures.scratchDirectory("aarch64-core")
        let sources = CrashingPrograms.sources
        let build = try Command.run(
            compiler,
            [
                "-O2", "-g", "-fomit-frame-pointer", "-static", "-pthread", "-o", "threads",
                "\(sources)/threads.c", "\(sources)/chain.c"
            ], currentDirectory: URL(fileURLWithPath: scratch))
        try #require(build.status == 0, "\(build.standardError)")
        _ = try Command.run(
            "/bin/sh", ["-c", "ulimit -c unlimited; exec '\(programs)/with-default-signals' '\(qemu)' ./threads"],
            currentDirectory: URL(fileURLWithPath: scratch))
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: scratch).first {
                $0.hasPrefix("qemu_") && $0.hasSuffix(".core")
            },
            "qemu wrote no core")
        // qemu ends by raising the signal itself: the kernel's core of qemu, when this machine writes one, is not wanted.
        try? FileManager.default.removeItem(atPath: scratch + "/core")
        return (scratch, scratch + "/" + name)
    }

    /// Where the cross toolchain's AArch64 libraries lie: the sysroot qemu-user runs dynamic programs with (`-L`).
    static let sysroot = "/usr/aarch64-linux-gnu"

    /// The threaded crash built as a dynamic program (its library `libchain.so` beside it, found by its run path; libc
    /// from ``sysroot``), run under qemu-user: the folder, the core qemu writes of it (no list of mapped files: the
    /// libraries are known only from the dynamic linker's list in memory), and the program's path.
    static func dynamicThreadsCore() throws -> (directory: String, core: String) {
        let compiler = try #require(
            Paths.executable(named: "aarch64-linux-gnu-gcc"), "gcc-aarch64-linux-gnu is needed; make test installs it")
        let qemu = try #require(Paths.executable(named: "qemu-aarch64"), "qemu-user is needed; make test installs it")
        let programs = try CrashingPrograms.directory.get()
        let scratch = Fixtures.scratchDirectory("aarch64-dynamic-core")
        let sources = CrashingPrograms.sources
        for command in [
            ["-O2", "-g", "-fomit-frame-pointer", "-fPIC", "-shared", "-o", "libchain.so", "\(sources)/chain.c"],
            [
                "-O2", "-g", "-fomit-frame-pointer", "-pthread", "-o", "threads", "\(sources)/threads.c", "-L.",
                "-lchain",
                "-Wl,-rpath,$ORIGIN"
            ]
        ] {
            let build = try Command.run(compiler, command, currentDirectory: URL(fileURLWithPath: scratch))
            try #require(build.status == 0, "\(build.standardError)")
        }
        _ = try Command.run(
            "/bin/sh",
            ["-c", "ulimit -c unlimited; exec '\(programs)/with-default-signals' '\(qemu)' -L \(sysroot) ./threads"],
            currentDirectory: URL(fileURLWithPath: scratch))
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: scratch).first {
                $0.hasPrefix("qemu_") && $0.hasSuffix(".core")
            },
            "qemu wrote no core")
        try? FileManager.default.removeItem(atPath: scratch + "/core")
        return (scratch, scratch + "/" + name)
    }

    /// gdb-multiarch's `thread apply all bt` of the program in `directory` run again under qemu-user's gdb stub, at
    /// its crash: gdb reads a core without mapped files no further than the program's entry, but it follows a live
    /// process's dynamic linker list (qemu-user places every run at the same addresses).
    static func gdbAtCrash(of program: String, in directory: String) throws -> CommandResult {
        let gdb = try #require(
            Paths.executable(named: "gdb-multiarch"), "gdb-multiarch is needed; make test installs it")
        let qemu = try #require(Paths.executable(named: "qemu-aarch64"), "qemu-user is needed; make test installs it")
        var last: CommandResult?
        // A port another program holds: qemu exits and gdb finds nothing to connect to; another port is tried.
        for _ in 0..<3 {
            let port = Int.random(in: 20_000..<60_000)
            let script = """
                '\(qemu)' -L \(sysroot) -g \(port) ./\(program) >/dev/null 2>&1 &
                '\(gdb)' -batch -nx -iex 'set sysroot \(sysroot)' -iex 'set solib-search-path \(directory)' \
                  -ex 'set debuginfod enabled off' -ex 'set tcp connect-timeout 10' -ex 'target remote 127.0.0.1:\(port)' \
                  -ex continue -ex 'set print frame-info location-and-address' -ex 'set backtrace past-main on' \
                  -ex 'thread apply all bt' -ex kill ./\(program)
                wait
                """
            let result = try Command.run("/bin/sh", ["-c", script], currentDirectory: URL(fileURLWithPath: directory))
            if result.standardOutput.contains("received signal") { return result }
            last = result
        }
        return try #require(last)
    }
}
