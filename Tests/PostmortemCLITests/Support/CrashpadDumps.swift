import Foundation
import TestSupport
import Testing

/// Minidumps of the crashing programs, written by Crashpad's own handler as an app with a Crashpad client has them
/// written: `libcrashpad-on-crash.so` is preloaded, and at the fatal signal starts `crashpad_handler
/// --trace-parent-with-exception`, which reads the process with ptrace. And the oracles that read them: rust-minidump's
/// minidump-stackwalk, with Breakpad symbol files that Mozilla's dump_syms writes. `make test` installs all three
/// (Tests/install-oracles.sh).
enum CrashpadDumps {
    static let oracles = Fixtures.packageRoot.appendingPathComponent(".build/oracles/bin").path

    /// The oracle `name` (`crashpad_handler`, `minidump-stackwalk`, `dump_syms`), or a failure saying how to get it.
    static func oracle(_ name: String) throws -> String {
        let path = oracles + "/" + name
        try #require(
            FileManager.default.isExecutableFile(atPath: path),
            "\(name) is needed at \(path); Tests/install-oracles.sh installs it")
        return path
    }

    /// The minidump Crashpad writes of `crash`, the program in `directory` (the preloaded library in `preloadFrom`, the
    /// crashing programs' folder unless given).
    static func dump(of crash: CrashingPrograms.Crash, in directory: String, preloadFrom: String? = nil) throws
        -> String
    {
        let database = Fixtures.scratchDirectory("crashpad-database")
        let arguments = crash.arguments.map { "'\($0)'" }.joined(separator: " ")
        var environment = CrashingPrograms.environment
        environment["LD_PRELOAD"] = (preloadFrom ?? directory) + "/libcrashpad-on-crash.so"
        environment["CRASHPAD_HANDLER"] = try oracle("crashpad_handler")
        environment["CRASHPAD_DATABASE"] = database
        let signals = (preloadFrom ?? directory) + "/with-default-signals"
        _ = try Command.run(
            "/bin/sh", ["-c", "ulimit -c 0; exec '\(signals)' '\(directory)/\(crash.program)' \(arguments)"],
            currentDirectory: URL(fileURLWithPath: database), environment: environment)
        let pending = database + "/pending"
        let written = (try? FileManager.default.contentsOfDirectory(atPath: pending))?.first { $0.hasSuffix(".dmp") }
        return pending + "/" + (try #require(written, "Crashpad wrote no minidump of \(crash)"))
    }

    /// A Breakpad symbol store (`NAME/DEBUGID/NAME.sym`), written by dump_syms once per test process, of the
    /// crashing programs and every shared library they load (libc, libstdc++, the Swift runtime), so that
    /// minidump-stackwalk walks through them by their call-frame information rather than by scanning.
    static let symbolStore: Result<String, StoreFailure> = {
        do {
            let directory = try CrashingPrograms.directory.get()
            var binaries = ["threads", "libchain.so", "terminate", "crashes"].map { directory + "/" + $0 }
            for program in ["threads", "terminate", "crashes"] {
                let loaded = try Command.run("/usr/bin/ldd", [directory + "/" + program]).outputLines.compactMap {
                    line -> String? in
                    guard let arrow = line.range(of: "=> /") else { return nil }
                    return String(line[line.index(before: arrow.upperBound)...].prefix { $0 != " " })
                }
                binaries += loaded.filter { !binaries.contains($0) }
            }
            return .success(try symbolStore(of: binaries))
        } catch {
            return .failure(StoreFailure(description: "\(error)"))
        }
    }()

    struct StoreFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// A Breakpad symbol store (`NAME/DEBUGID/NAME.sym`) of `binaries`, written by dump_syms.
    static func symbolStore(of binaries: [String]) throws -> String {
        let store = Fixtures.scratchDirectory("symbol-store")
        let dumpSyms = try oracle("dump_syms")
        for binary in binaries {
            let result = try Command.run(dumpSyms, ["--inlines", binary])
            try #require(result.status == 0, "dump_syms \(binary): \(result.standardError)")
            let module = try #require(
                result.standardOutput.prefix { $0 != "\n" }.split(separator: " ").map(String.init) as [String]?)
            try #require(module.count >= 5 && module[0] == "MODULE", "dump_syms wrote no MODULE line for \(binary)")
            let folder = store + "/" + module[4] + "/" + module[3]
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try result.standardOutput.write(
                toFile: folder + "/" + module[4] + ".sym", atomically: true, encoding: .utf8)
        }
        return store
    }

    /// minidump-stackwalk's `--json` document of `dump` with the symbols of `store`.
    static func stackwalk(_ dump: String, symbols store: String) throws -> [String: Any] {
        let result = try Command.run(try oracle("minidump-stackwalk"), ["--json", "--symbols-path", store, dump])
        try #require(result.status == 0, "minidump-stackwalk: \(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }
}
