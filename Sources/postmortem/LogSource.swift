import ArgumentParser
import Glibc

/// A log to read: a file, or standard input.
struct LogSource {
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The name errors use: the path, or `-`.
    var name: String
    var path: String?

    /// The directory the log lies in, searched for the binaries it names.
    var directory: String? {
        guard let path else { return nil }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// The logs named by `arguments`: files as given, the regular files of a directory (sorted), `-` for stdin.
    static func expand(_ arguments: [String]) -> [LogSource] {
        arguments.flatMap { argument -> [LogSource] in
            if argument == "-" { return [LogSource(name: "-", path: nil)] }
            var status = stat()
            guard stat(argument, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, let stream = opendir(argument) else {
                return [LogSource(name: argument, path: argument)]
            }
            defer { closedir(stream) }
            var files: [LogSource] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                let path = argument.hasSuffix("/") ? argument + name : argument + "/" + name
                var entryStatus = stat()
                if !name.hasPrefix("."), stat(path, &entryStatus) == 0, entryStatus.st_mode & S_IFMT == S_IFREG {
                    files.append(LogSource(name: path, path: path))
                }
            }
            return files.sorted { $0.name < $1.name }
        }
    }

    /// The whole log.
    func read() throws(ReadError) -> [UInt8] {
        let descriptor = path.map { open($0, O_RDONLY | O_CLOEXEC) } ?? STDIN_FILENO
        guard descriptor >= 0 else { throw ReadError(description: "\(name): cannot open: \(String(cString: strerror(errno)))") }
        defer { if path != nil { close(descriptor) } }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw ReadError(description: "\(name): is a directory")
        }
        // A regular file is read in one piece of its size; a pipe, in pieces until its end.
        let size = status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : 0
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while true {
            if filled == bytes.count { bytes += [UInt8](repeating: 0, count: max(1 << 16, bytes.count)) }
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 { throw ReadError(description: "\(name): cannot read: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }
}

/// Standard output, or the file `--output` names.
struct OutputSink {
    private let descriptor: Int32

    init(path: String?) throws {
        guard let path else {
            descriptor = STDOUT_FILENO
            return
        }
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            Output.error("\(path): cannot write: \(String(cString: strerror(errno)))")
            throw ExitCode.failure
        }
    }

    mutating func write(_ bytes: [UInt8]) {
        Output.flush()
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }

    func close() {
        if descriptor != STDOUT_FILENO { _ = Glibc.close(descriptor) }
    }
}
