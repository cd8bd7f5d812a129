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

    /// The whole log (or core, or minidump), decompressed when it was kept compressed (gzip, xz, zstd).
    func read() throws(FileSystem.Failure) -> [UInt8] {
        let bytes = try FileSystem.read(path, maximumSize: Self.maximumSize)
        do {
            return try CompressedInput.decompressed(bytes, maximumSize: Self.maximumSize)
        } catch {
            throw FileSystem.Failure(path: name, detail: error.description)
        }
    }

    /// Whether the file starts as compressed data does (standard input is read before it is looked at).
    var isCompressed: Bool {
        guard let path else { return false }
        return CompressedInput.format(of: FileSystem.read(path, offset: 0, count: 8) ?? []) != nil
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
}
