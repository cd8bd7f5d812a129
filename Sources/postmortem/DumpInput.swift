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
    static func isDump(prefix: [UInt8]) -> Bool {
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
        if MinidumpFile.isMinidump(prefix: bytes) {
            return unwound(try MinidumpFile(bytes: ImmutableBytes(bytes), path: name))
        }
        return unwound(try CoreFile(bytes: ImmutableBytes(bytes), path: name))
    }

    /// What a log source holds: a dump, unwound, or a log (a large file is read a piece at a time, not here).
    enum Contents {
        case dump(Unwound)
        case log(LogInput)
    }

    /// Why a source could not be read, in the line stderr gets.
    struct ReadFailure: Error {
        var line: String
    }

    /// What `source` holds. A core or minidump is recognized by its first bytes before anything reads it whole
    /// (standard input, and a compressed file, are read first: a systemd-coredump core is kept zstd-compressed).
    func contents(of source: LogSource) -> Result<Contents, ReadFailure> {
        var read: [UInt8]?
        if source.path == nil || source.isCompressed {
            do { read = try source.read() } catch { return .failure(ReadFailure(line: error.description)) }
        }
        let isDump =
            read.map { Self.isDump(prefix: Array($0.prefix(Self.prefixLength))) } ?? source.path.map(Self.isDump)
            ?? false
        if isDump {
            do {
                if let read { return .success(.dump(try report(of: read, name: source.name))) }
                return .success(.dump(try report(of: source.path ?? source.name)))
            } catch {
                return .failure(ReadFailure(line: "\(error)"))
            }
        }
        if let read { return .success(.log(.bytes(read))) }
        // A large file is read a piece at a time by the reader: memory follows the piece, not the file.
        if let path = source.path, let size = FileSystem.status(path)?.size, size > UInt64(2 * LogReports.pieceSize),
            size <= UInt64(LogSource.maximumSize), FileSystem.isRegularFile(path)
        {
            return .success(.log(.file(path: path, size: Int(size))))
        }
        do { return .success(.log(.bytes(try source.read()))) } catch {
            return .failure(ReadFailure(line: error.description))
        }
    }

    private var finder: BinaryFinder {
        var callFrames: CallFrameRowsLookup?
        if let symbolStore {
            callFrames = { name, path, buildID in symbolStore.callFrames(name: name, path: path, buildID: buildID) }
        }
        return BinaryFinder(
            debugPaths: debugPaths, executable: executable, remote: remote, callFramesWithoutBinary: callFrames)
    }

    private func unwound(_ core: CoreFile) -> Unwound {
        // What the core lacks (a segment cut short) goes to stderr with the report's other warnings.
        Unwound(
            report: CoreUnwinding(core: core, finder: finder, frameLimit: frameLimit, scansStack: scansStack).report)
    }

    private func unwound(_ dump: MinidumpFile) -> Unwound {
        let unwinding = MinidumpUnwinding(dump: dump, finder: finder, frameLimit: frameLimit, scansStack: scansStack)
        return Unwound(report: unwinding.report, minidump: unwinding)
    }
}
