import CrashLogs
import ObjectFiles
import PostmortemCore
import Unwinding

/// Core files given where logs are (`symbolicate`, `group`): recognized by their ELF header before anything reads
/// them whole, and unwound into reports.
struct CoreInput {
    var debugPaths: [String]
    var executable: String?
    var remote: RemoteDebugFileSource?
    var frameLimit: Int

    /// Whether the file at `path` is an ELF core (its first bytes say so).
    static func isCore(_ path: String) -> Bool {
        FileSystem.read(path, offset: 0, count: 18).map(CoreFile.isCore(prefix:)) ?? false
    }

    /// The report of the core at `path`, every thread unwound; `nil` after saying why on stderr when it cannot be read.
    func report(of path: String) -> CrashReport? {
        let finder = BinaryFinder(debugPaths: debugPaths, executable: executable, remote: remote)
        do {
            return try CoreUnwinding(path: path, finder: finder, frameLimit: frameLimit).report
        } catch {
            Output.error(error.description)
            return nil
        }
    }
}
