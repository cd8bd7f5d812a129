import ObjectFiles
import PostmortemCore
import Symbolication

/// Writes the index files a run found missing once its answers are out. By default a detached `postmortem cache
/// build` writes them, so that the first run on a new binary costs what a run without the cache costs; one writer at
/// a time (a run that finds one busy leaves the work to a later run, so a script calling `resolve` in a loop piles
/// up nothing). `POSTMORTEM_CACHE_WRITE=foreground` writes them before the run ends instead.
enum IndexCacheWriting {
    /// Whether runs write the files they lack themselves (`POSTMORTEM_CACHE_WRITE=foreground`).
    static var writesInRun: Bool { FileSystem.environment("POSTMORTEM_CACHE_WRITE") == "foreground" }

    /// Writes or hands on the files `symbolizers` need; prints at most one line when the cache cannot be used.
    /// - Parameter writeNow: writes them in this process, printing what writing found (`notes`).
    static func finish(
        _ symbolizers: [ImageSymbolizer], cache: IndexCache?, debugRoots: [String],
        writeNow: (ImageSymbolizer) -> Void
    ) {
        guard let cache else { return }
        let pending = symbolizers.filter(\.needsIndexCacheFile)
        guard !pending.isEmpty else { return }
        if let problem = cache.prepare() {
            Output.error(problem)
            return
        }
        if writesInRun {
            Interruption.onInterruption { cache.removeOwnTemporaryFiles() }
            pending.forEach(writeNow)
            cache.evict(keeping: Set(pending.compactMap { $0.indexCachePath() }))
            return
        }
        // A writer at work already: this run's images wait for a later run.
        guard !FileLock.isHeld(cache.writerLockPath) else { return }
        Output.flush()
        DetachedProcess.spawnSelf(
            arguments: arguments(
                images: pending.map { ($0.image.path, $0.options.architecture?.name) },
                debugRoots: debugRoots))
    }

    /// The command line of the detached writer.
    static func arguments(images: [(path: String, architecture: String?)], debugRoots: [String]) -> [String] {
        var arguments = ["cache", "build", "--if-idle", "--quiet"]
        for root in debugRoots { arguments += ["-d", root] }
        for image in images { arguments += ["--arch", image.architecture ?? "-"] }
        return arguments + ["--"] + images.map(\.path)
    }
}
