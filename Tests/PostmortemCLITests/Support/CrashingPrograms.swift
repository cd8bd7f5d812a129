import Foundation
import TestSupport
import Testing

/// Programs the core-file tests build from `Tests/Fixtures/Sources/cores` and crash, and the cores they leave: the
/// kernel's where `core_pattern` writes a file, and gdb's `generate-core-file` always.
enum CrashingPrograms {
    /// A program and the arguments that crash it one way.
    struct Crash: CustomStringConvertible, Sendable {
        var program: String
        var arguments: [String] = []
        var description: String { ([program] + arguments).joined(separator: " ") }
    }

    static let sources = Fixtures.sources.appendingPathComponent("cores").path

    static let crashes: [Crash] = [
        Crash(program: "threads"), Crash(program: "terminate"), Crash(program: "handler"),
        Crash(program: "crashes", arguments: ["fatal"]), Crash(program: "crashes", arguments: ["index"]),
        Crash(program: "crashes", arguments: ["thread"]), Crash(program: "crashes", arguments: ["overflow"])
    ]

    /// Where the programs are built, once per test process.
    static let directory: Result<String, BuildFailure> = {
        let directory = Fixtures.scratchDirectory("crashing-programs")
        let sources = Self.sources
        let commands: [[String]] = [
            ["gcc", "-O2", "-o", "with-default-signals", "\(sources)/with-default-signals.c"],
            ["gcc", "-O2", "-g", "-fomit-frame-pointer", "-fPIC", "-shared", "-o", "libchain.so", "\(sources)/chain.c"],
            [
                "gcc", "-O2", "-g", "-fomit-frame-pointer", "-pthread", "-o", "threads", "\(sources)/threads.c", "-L.",
                "-lchain",
                "-Wl,-rpath,$ORIGIN"
            ],
            ["g++", "-O2", "-g", "-o", "terminate", "\(sources)/terminate.cpp"],
            ["gcc", "-O1", "-g", "-o", "handler", "\(sources)/handler.c"],
            ["gcc", "-O1", "-g", "-rdynamic", "-o", "sort", "\(sources)/sort.c"],
            ["g++", "-O2", "-g", "-rdynamic", "-o", "scoped", "\(sources)/scoped.cpp"],
            ["gcc", "-O1", "-g", "-o", "clock", "\(sources)/clock.c"],
            ["gcc", "-O0", "-g", "-o", "overflow", "\(sources)/overflow.c"],
            ["gcc", "-O2", "-g", "-pthread", "-o", "park", "\(sources)/park.c"],
            ["swiftc", "-g", "-Onone", "-o", "crashes", "\(sources)/crashes.swift"],
            [
                "gcc", "-O2", "-g", "-shared", "-fPIC", "-o", "libcrashpad-on-crash.so",
                "\(Fixtures.sources.path)/minidumps/crashpad-on-crash.c"
            ],
            // No call-frame information at all: no unwind tables, and -g's .debug_frame removed.
            [
                "gcc", "-O1", "-g", "-fno-asynchronous-unwind-tables", "-fno-unwind-tables", "-fomit-frame-pointer",
                "-fPIC", "-shared",
                "-o", "libnocfi.so", "\(sources)/nocfi.c"
            ],
            ["objcopy", "--remove-section", ".debug_frame", "libnocfi.so"],
            ["gcc", "-O2", "-g", "-o", "scan", "\(sources)/scan.c", "-L.", "-lnocfi", "-Wl,-rpath,$ORIGIN"]
        ]
        for command in commands {
            guard
                let result = try? Command.run(
                    "/usr/bin/env", command, currentDirectory: URL(fileURLWithPath: directory)),
                result.status == 0
            else {
                return .failure(BuildFailure(description: "could not build: \(command.joined(separator: " "))"))
            }
        }
        return .success(directory)
    }()

    struct BuildFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The environment crashes run in: the Swift runtime's backtracer off, so that the process dies by its signal.
    static let environment = ["SWIFT_BACKTRACE": "enable=no"]

    /// The core the kernel writes of `crash`, when this machine's `core_pattern` writes one to the working directory
    /// (`core` or `core.PID`); `nil` when it hands cores to a program (systemd-coredump, apport).
    static func kernelCore(of crash: Crash, in directory: String) throws -> String? {
        let pattern =
            (try? String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard pattern.hasPrefix("core") else { return nil }
        let folder = Fixtures.scratchDirectory("kernel-core")
        let arguments = crash.arguments.map { "'\($0)'" }.joined(separator: " ")
        _ = try Command.run(
            "/bin/sh",
            [
                "-c",
                "ulimit -c unlimited; exec '\(directory)/with-default-signals' '\(directory)/\(crash.program)' \(arguments)"
            ],
            currentDirectory: URL(fileURLWithPath: folder), environment: environment)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.first {
            $0 == "core" || $0.hasPrefix("core.")
        }
        return written.map { folder + "/" + $0 }
    }

    /// The glibc trace `program` (one built with `glibc-trace.h`) writes of its crash when given an argument: what its
    /// SIGSEGV handler printed on standard error.
    static func glibcTrace(of program: String, in directory: String) throws -> String {
        let run = try Command.run(
            directory + "/with-default-signals", [directory + "/" + program, "trace"],
            currentDirectory: URL(fileURLWithPath: directory), environment: environment)
        #expect(run.standardError.contains("backtrace:"), "\(program): \(run.standardError)")
        return run.standardError
    }

    /// The core gdb writes of `crash` where it stops at the signal (`generate-core-file`).
    static func gdbCore(of crash: Crash, in directory: String) throws -> String? {
        let core = Fixtures.scratchDirectory("gdb-core") + "/core"
        _ = try Command.run(
            directory + "/with-default-signals",
            [
                "gdb", "-batch", "-nx", "-ex", "set debuginfod enabled off", "-ex", "run", "-ex",
                "generate-core-file \(core)",
                "--args", directory + "/" + crash.program
            ] + crash.arguments,
            currentDirectory: URL(fileURLWithPath: directory), environment: environment)
        return FileManager.default.fileExists(atPath: core) ? core : nil
    }
}
