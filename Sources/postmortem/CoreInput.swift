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
        do { return report(of: try CoreFile(path: path)) } catch {
            Output.error(error.description)
            return nil
        }
    }

    /// The report of a core read whole (from standard input), named `name`; `nil` after saying why on stderr.
    func report(of bytes: [UInt8], name: String) -> CrashReport? {
        do { return report(of: try CoreFile(bytes: ImmutableBytes(bytes), path: name)) } catch {
            Output.error(error.description)
            return nil
        }
    }

    private func report(of core: CoreFile) -> CrashReport {
        let finder = BinaryFinder(debugPaths: debugPaths, executable: executable, remote: remote)
        // What the core lacks (a segment cut short) goes to stderr with the report's other warnings.
        return CoreUnwinding(core: core, finder: finder, frameLimit: frameLimit).report
    }
}
