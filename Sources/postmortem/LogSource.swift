import ArgumentParser
import Decompression
import ObjectFiles
import PostmortemCore

/// A log to read: a file, or standard input.
struct LogSource: Sendable {
    /// The name errors use: the path, or `-`.
    var name: String
    var path: String?

    /// The directory the log lies in, searched for the binaries it names.
    var directory: String? {
        path.map(FilePath.directory(of:))
    }

    /// The logs named by `arguments`: files as given, the regular files of a directory (sorted), `-` for stdin.
    static func expand(_ arguments: [String]) -> [LogSource] {
        arguments.flatMap { argument -> [LogSource] in
            if argument == "-" { return [LogSource(name: "-", path: nil)] }
            guard FileSystem.isDirectory(argument) else { return [LogSource(name: argument, path: argument)] }
            let directory = argument.hasSuffix("/") ? argument : argument + "/"
            // The directory says which entries are regular files; a link (or a file system that does not say) is checked.
            return FileSystem.entries(of: argument).filter { !$0.name.hasPrefix(".") }
                .filter { $0.isRegularFile || (!$0.isDirectory && FileSystem.isRegularFile(directory + $0.name)) }
                .map { directory + $0.name }.sorted().map { LogSource(name: $0, path: $0) }
        }
    }

    /// The most a log may hold: parsing takes ten to twelve times a log's size in memory (1.0 to 1.2 GB for
    /// 100 MB of frames, measured), so this keeps one log near 3 GB at most; real crash logs are far smaller.
    static let maximumSize = 256 << 20

    /// The whole log (or core, or minidump), decompressed when it was kept compressed (gzip, xz, zstd), and whether
    /// it was. `file` is the log's file when the caller opened it already (to see its size).
    func read(_ file: FileSystem.OpenFile? = nil) throws(FileSystem.Failure) -> (bytes: [UInt8], wasCompressed: Bool) {
        let bytes =
            if let file { try FileSystem.read(file, maximumSize: Self.maximumSize) } else {
                try FileSystem.read(path, maximumSize: Self.maximumSize)
            }
        guard CompressedInput.format(of: bytes) != nil else { return (bytes, false) }
        do {
            return (try CompressedInput.decompressed(bytes, maximumSize: Self.maximumSize), true)
        } catch {
            throw FileSystem.Failure(path: name, detail: error.description)
        }
    }
}

/// Standard output, or the file `--output` names.
struct OutputSink: Sendable {
    private let writer: FileSystem.Writer

    init(path: String?) throws {
        guard let path else {
            writer = .standardOutput
            return
        }
        do { writer = try FileSystem.Writer(path: path) } catch {
            Output.error(error.description)
            throw ExitCode.failure
        }
    }

    func write(_ bytes: [UInt8]) {
        Output.flush()
        writer.write(bytes)
    }

    /// Writes `pieces` one after the other, in one system call where it can.
    func write(_ pieces: [[UInt8]]) {
        guard !pieces.isEmpty else { return }
        Output.flush()
        writer.write(pieces)
    }
}
