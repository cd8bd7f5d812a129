import BreakpadSymbols
import CrashLogs
import Decompression
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

    /// A dump's report, and for a minidump its walk (what `--stackwalk-json` writes from).
    struct Unwound {
        var report: CrashReport
        var minidump: MinidumpUnwinding?
    }

    /// The report of the dump at `path`, which starts with `prefix` (its first bytes, already read to tell it from a
    /// log), every thread unwound; throws what makes it unreadable (its description names the file).
    func report(of path: String, prefix: [UInt8]) throws -> Unwound {
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
        // A file is opened once: its size says whether it is read whole (and then looked at) or looked at by its first
        // bytes and read a piece at a time (a large file: memory follows the piece, not the file).
        let opened = source.path.flatMap { try? FileSystem.OpenFile(path: $0) }
        if let file = opened, file.isRegularFile, file.size > UInt64(2 * LogReports.pieceSize) {
            let prefix = file.read(count: max(CompressedInput.prefixLength, Self.prefixLength), at: 0)
            if CompressedInput.format(of: prefix) == nil {
                if Self.isDump(prefix: prefix) { return dump { try report(of: file.path, prefix: prefix) } }
                if file.size <= UInt64(LogSource.maximumSize) {
                    return .success(.log(.file(path: file.path, size: Int(file.size))))
                }
            }
        }
        let read: (bytes: [UInt8], wasCompressed: Bool)
        do { read = try source.read(opened) } catch { return .failure(ReadFailure(line: error.description)) }
        let prefix = Array(read.bytes.prefix(Self.prefixLength))
        guard Self.isDump(prefix: prefix) else { return .success(.log(.bytes(read.bytes))) }
        // A dump in a file is read from the file (mapped), one decompressed or from standard input from its bytes.
        if let path = source.path, !read.wasCompressed { return dump { try report(of: path, prefix: prefix) } }
        return dump { try report(of: read.bytes, name: source.name) }
    }

    /// A dump's report, or the line that says why it could not be read.
    private func dump(_ unwind: () throws -> Unwound) -> Result<Contents, ReadFailure> {
        do { return .success(.dump(try unwind())) } catch { return .failure(ReadFailure(line: "\(error)")) }
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
