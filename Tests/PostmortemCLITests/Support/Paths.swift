import Foundation
import TestSupport

/// Where the package, its fixtures and the tools the tests run are.
enum Paths {
    static let packageRoot = Fixtures.packageRoot
    static let fixtures = Fixtures.directory
    static let golden = packageRoot.appendingPathComponent("Tests/PostmortemCLITests/Golden")

    static func fixture(_ name: String) -> String { Fixtures.path(name) }

    /// The `postmortem` executable the tests run: `$POSTMORTEM_EXECUTABLE` when set (`make test` also runs the CLI
    /// tests on the release build, a static executable), else the one `swift build` put beside the test bundle.
    static let postmortem: String = {
        if let path = ProcessInfo.processInfo.environment["POSTMORTEM_EXECUTABLE"], !path.isEmpty { return path }
        return builtExecutable(named: "postmortem")
    }()

    /// Whether the tests run the release binary (`make test`'s second pass, `$POSTMORTEM_EXECUTABLE`): the few tests
    /// over inputs of tens of megabytes run there only, where they take a second, not the twenty a debug build takes.
    static let runsTheReleaseBinary = !(ProcessInfo.processInfo.environment["POSTMORTEM_EXECUTABLE"] ?? "").isEmpty

    /// The executable `name` of this package that `swift build` put beside the test bundle.
    static func builtExecutable(named name: String) -> String {
        let bundleDirectory = Bundle.main.bundleURL.deletingLastPathComponent()
        for candidate in [Bundle.main.bundleURL, bundleDirectory] {
            let path = candidate.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return packageRoot.appendingPathComponent(".build/debug/" + name).path
    }

    /// `llvm-symbolizer`: `$LLVM_SYMBOLIZER` (the Makefile sets it to the Swift toolchain's), else the Swift
    /// toolchain's, else the one on `PATH`.
    static let llvmSymbolizer: String? = {
        if let path = ProcessInfo.processInfo.environment["LLVM_SYMBOLIZER"], !path.isEmpty,
            FileManager.default.isExecutableFile(atPath: path)
        {
            return path
        }
        if let swiftc = executable(named: "swiftc") {
            let sibling = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("llvm-symbolizer").path
            if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        }
        return executable(named: "llvm-symbolizer")
    }()

    static let llvmDwarfdump: String? = executable(named: "llvm-dwarfdump")

    /// `llvm-objdump`: the Swift toolchain's (it disassembles Mach-O slices by `--arch`), else the one on `PATH`.
    static let llvmObjdump: String? = {
        if let swiftc = executable(named: "swiftc") {
            let sibling = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("llvm-objdump").path
            if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        }
        return executable(named: "llvm-objdump")
    }()

    /// The first executable called `name` on `PATH`.
    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

extension Command {
    /// The index cache of the tests' postmortem runs: one per test process, never the user's.
    static let indexCacheDirectory = Fixtures.scratchDirectory("index-cache")

    /// Runs `postmortem` with `arguments` from the package root, with the tests' index cache (or `cacheDirectory`),
    /// written before each run ends (``foregroundCacheWrites``) unless `backgroundCacheWrites`.
    static func postmortem(
        _ arguments: [String], input: String? = nil, cacheDirectory: String? = nil,
        backgroundCacheWrites: Bool = false
    ) throws -> CommandResult {
        var environment = ["POSTMORTEM_CACHE_DIR": cacheDirectory ?? indexCacheDirectory]
        if !backgroundCacheWrites { environment.merge(foregroundCacheWrites) { $1 } }
        return try run(Paths.postmortem, arguments, input: input, environment: environment)
    }

    /// Index files written by the run that needs them, before it ends: a test's next run finds them, and no writer
    /// outlives the tests.
    static let foregroundCacheWrites = ["POSTMORTEM_CACHE_WRITE": "foreground"]
}
