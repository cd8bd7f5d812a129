import BreakpadSymbols
import CrashLogs
import ObjectFiles
import PostmortemCore
import Unwinding

/// Core files and minidumps given where logs are (`symbolicate`, `group`): recognized by their first bytes before
/// anything reads them whole, and unwound into reports.
struct DumpInput: Sendable {
    var debugPaths: [String]
    var executable: String?
    var remote: RemoteDebugFileSource?
    var frameLimit: Int
    /// Whether walks scan the stack where CFI and frame pointers fail (`--scan`).
    var scansStack = false
    /// Where modules whose binaries are not found get their call-frame information (`--symbols` stores).
    var symbolStore: SymbolStoreLookup?

    /// How many first bytes tell a dump from a log.
    static let prefixLength = 18

    /// Whether `prefix` (a file's first bytes) starts an ELF core or a minidump.
    static func isDump(prefix: some Collection<UInt8>) -> Bool {
        CoreFile.isCore(prefix: prefix) || MinidumpFile.isMinidump(prefix: prefix)
    }

    /// Whether the file at `path` is an ELF core or a minidump (its first bytes say so).
    static func isDump(_ path: String) -> Bool {
        FileSystem.read(path, offset: 0, count: prefixLength).map { isDump(prefix: $0) } ?? false
    }

    /// A dump's report, and for a minidump its walk (what `--stackwalk-json` writes from).
    struct Unwound {
        var report: CrashReport
        var minidump: MinidumpUnwinding?
    }

    /// The report of the dump at `path`, every thread unwound; throws what makes it unreadable (its description names
    /// the file).
    func report(of path: String) throws -> Unwound {
        let prefix = FileSystem.read(path, offset: 0, count: Self.prefixLength) ?? []
        if MinidumpFile.isMinidump(prefix: prefix) { return unwound(try MinidumpFile(path: path)) }
        return unwound(try CoreFile(path: path))
    }

    /// The report of a dump read whole (from standard input, or decompressed), named `name`.
    func report(of bytes: [UInt8], name: String) throws -> Unwound {
        if MinidumpFile.isMinidump(prefix: bytes) { return unwound(try MinidumpFile(bytes: ImmutableBytes(bytes), path: name)) }
        return unwound(try CoreFile(bytes: ImmutableBytes(bytes), path: name))
    }

    private var finder: BinaryFinder {
        var callFrames: CallFrameRowsLookup?
        if let symbolStore {
            callFrames = { name, path, buildID in symbolStore.callFrames(name: name, path: path, buildID: buildID) }
        }
        return BinaryFinder(debugPaths: debugPaths, executable: executable, remote: remote, callFramesWithoutBinary: callFrames)
    }

    private func unwound(_ core: CoreFile) -> Unwound {
        // What the core lacks (a segment cut short) goes to stderr with the report's other warnings.
        Unwound(report: CoreUnwinding(core: core, finder: finder, frameLimit: frameLimit, scansStack: scansStack).report)
    }

    private func unwound(_ dump: MinidumpFile) -> Unwound {
        let unwinding = MinidumpUnwinding(dump: dump, finder: finder, frameLimit: frameLimit, scansStack: scansStack)
        return Unwound(report: unwinding.report, minidump: unwinding)
    }
}
