import ArgumentParser
import ObjectFiles
import Symbolication

/// `postmortem cache`: where the index cache lives, what it holds, and emptying it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the index cache.",
        discussion: """
            The first lookup in a binary with debug information writes an index file that later runs \
            map instead of reading DWARF. Files live in $POSTMORTEM_CACHE_DIR, else $XDG_CACHE_HOME/postmortem, \
            else ~/.cache/postmortem, one per build-id or UUID. --no-cache on resolve, info and symbolicate \
            turns the cache off.
            """,
        subcommands: [CacheInfoCommand.self, CacheClearCommand.self]
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
        Output.line("\(cache.directory): \(entries.count) index file\(entries.count == 1 ? "" : "s"), \(Self.size(total))")
        for entry in entries {
            let what = entry.image ?? "unusable (\(entry.problem ?? "unknown")); rebuilt on next use"
            Output.line("  \(entry.path.split(separator: "/").last ?? "")  \(Self.size(entry.size))  \(what)")
        }
    }

    private static func size(_ bytes: UInt64) -> String {
        bytes < 1 << 20 ? "\((bytes + 1023) / 1024) KiB" : String(Double(bytes * 10 / (1 << 20)) / 10) + " MiB"
    }
}

struct CacheClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every index file from the cache directory.")

    func run() throws {
        let cache = try standardCache()
        let result = cache.clear()
        result.failed.forEach { Output.error("\($0): could not be removed") }
        Output.line("\(cache.directory): removed \(result.removed) file\(result.removed == 1 ? "" : "s")")
        if !result.failed.isEmpty { throw ExitCode.failure }
    }
}
