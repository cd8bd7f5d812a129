import ArgumentParser
import CommandLineOptions
import ObjectFiles
import PostmortemCore
import Symbolication

/// `postmortem cache`: where the index cache lives, what it holds, and emptying it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the index cache.",
        discussion: """
            After the first lookup in a binary with debug information, an index file is written (in the background, \
            once the answers are out) that later runs map instead of reading DWARF. Files live in \
            $POSTMORTEM_CACHE_DIR, else $XDG_CACHE_HOME/postmortem, else ~/.cache/postmortem, one per build-id or \
            UUID, within $POSTMORTEM_CACHE_LIMIT (default 2G; the least recently used go first). \
            --no-cache on resolve, info and symbolicate turns the cache off.
            """,
        subcommands: [CacheInfoCommand.self, CacheBuildCommand.self, CachePruneCommand.self, CacheClearCommand.self]
    )
}

/// The cache directory, or an error when no environment variable names one.
private func standardCache() throws -> IndexCache {
    guard let cache = IndexCache.standard() else {
        Output.error("no cache directory: set POSTMORTEM_CACHE_DIR, XDG_CACHE_HOME or HOME")
        throw ExitCode.failure
    }
    return cache
}

struct CacheInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "List the cache directory's index files: size and the image each indexes.")

    func run() throws {
        let cache = try standardCache()
        let entries = cache.entries()
        let total = entries.reduce(0) { $0 + $1.size }
        Output.line(
            "\(cache.directory): \(entries.count) index file\(entries.count == 1 ? "" : "s"), \(Self.size(total)) of \(Self.size(cache.limit))"
        )
        for entry in entries {
            let what = entry.image ?? "unusable (\(entry.problem ?? "unknown")); rebuilt on next use"
            Output.line("  \(FilePath.fileName(of: entry.path))  \(Self.size(entry.size))  \(what)")
        }
        for path in cache.staleTemporaryFiles() {
            Output.line(
                "  \(FilePath.fileName(of: path))  \(Self.size(FileSystem.status(path)?.size ?? 0))  left by an interrupted writer; removed by the next one or by cache prune"
            )
        }
        if FileLock.isHeld(cache.writerLockPath) { Output.line("  a writer is at work") }
    }

    static func size(_ bytes: UInt64) -> String {
        if bytes < 1 << 20 { return "\((bytes + 1023) / 1024) KiB" }
        if bytes < 1 << 30 { return String(Double(bytes * 10 / (1 << 20)) / 10) + " MiB" }
        return String(Double(bytes / (1 << 20) * 10 / 1024) / 10) + " GiB"
    }
}

struct CacheClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Remove every index file from the cache directory.")

    func run() throws {
        let cache = try standardCache()
        let result = cache.clear()
        result.failed.forEach { Output.error("\($0): could not be removed") }
        Output.line("\(cache.directory): removed \(result.removed) file\(result.removed == 1 ? "" : "s")")
        if !result.failed.isEmpty { throw ExitCode.failure }
    }
}

struct CachePruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove index files no lookup can use: of binaries that no longer exist, unreadable ones, leftovers.")

    func run() throws {
        let cache = try standardCache()
        let removed = cache.prune()
        for (path, reason) in removed { Output.line("removed \(FilePath.fileName(of: path)): \(reason)") }
        Output.line("\(cache.directory): removed \(removed.count) file\(removed.count == 1 ? "" : "s")")
    }
}

/// `postmortem cache build BINARY…`: writes the index files of binaries now (after a build, say), as a run that
/// found them missing would have in the background. One writer at a time: it waits for another to finish, or with
/// `--if-idle` leaves the work to it.
struct CacheBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Write the index files of binaries now (runs write missing ones in the background).")

    @OptionGroup var debugPathOption: DebugPathOption

    @Option(
        name: CommandOption.arch.names,
        help: "The slice of each universal binary, in the order of the binaries (- for none).")
    var slices: [SliceArgument] = []

    @Flag(name: .customLong("if-idle"), help: "Do nothing when another writer is at work.")
    var ifIdle = false

    @Flag(name: .customLong("quiet"), help: "Print nothing.")
    var quiet = false

    @Argument(help: "Binaries (or their debug files).", completion: .file())
    var binaries: [String]

    func run() throws {
        if !quiet { DebugPathCheck.reportUnsearchable(debugPathOption.debugPaths) }
        let cache = try standardCache()
        if let problem = cache.prepare() {
            if !quiet { Output.error(problem) }
            throw ExitCode.failure
        }
        var lock = FileLock(path: cache.writerLockPath)
        if lock == nil {
            if ifIdle { return }
            if !quiet { Output.error("\(cache.directory): waiting for the writer at work") }
            lock = FileLock(path: cache.writerLockPath, waiting: true)
        }
        Interruption.onInterruption { cache.removeOwnTemporaryFiles() }
        cache.staleTemporaryFiles().forEach { FileSystem.remove($0) }
        var written: Set<String> = []
        var failed = false
        let remote = DebuginfodSetup.remoteDebugFiles(offline: true, quiet: true)
        let diagnostics = StandardErrorDiagnostics(quiet: quiet)
        for (position, binary) in binaries.enumerated() {
            let architecture = position < slices.count ? slices[position].architecture : nil
            // Debug files downloaded by the run are found in debuginfod's cache; the writer itself fetches nothing.
            let options = SymbolizerOptions(
                debugFileSearch: DebugFileSearch(roots: debugPathOption.debugPaths),
                architecture: architecture, indexCache: cache,
                remoteDebugFiles: remote)
            do {
                let symbolizer = try ImageSymbolizer(path: binary, options: options, diagnostics: diagnostics.sink)
                symbolizer.openingDiagnostics.forEach(diagnostics.say)
                let needed = symbolizer.needsIndexCacheFile
                symbolizer.writeIndexCache()
                let path = symbolizer.indexCachePath()
                if let path { written.insert(path) }
                if !quiet {
                    Output.line(
                        "\(binary): \(needed ? "written" : "up to date") (\(path.map(FilePath.fileName(of:)) ?? "none"))"
                    )
                }
            } catch {
                if !quiet { Output.error(error.description) }
                failed = true
            }
        }
        cache.evict(keeping: written)
        withExtendedLifetime(lock) {}
        if failed { throw ExitCode.failure }
    }
}
