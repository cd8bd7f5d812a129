import Glibc

/// The file-system calls the rest of Postmortem needs, kept here with the other code that talks to the
/// C library: listing directories, reading whole files and standard input, writing output.
public enum FileSystem {
    /// Why a file could not be read or written: the path and the system's words.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var detail: String
        public var description: String { "\(path): \(detail)" }
    }

    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    public static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The names in a directory (without `.` and `..`), each with whether it is a directory; empty when unreadable.
    public static func entries(of directory: String) -> [(name: String, isDirectory: Bool)] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var entries: [(name: String, isDirectory: Bool)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            entries.append((name, entry.pointee.d_type == UInt8(DT_DIR)))
        }
        return entries
    }

    /// The whole file at `path`, or standard input when `path` is `nil`.
    public static func read(_ path: String?) throws(Failure) -> [UInt8] {
        let name = path ?? "-"
        let descriptor = path.map { open($0, O_RDONLY | O_CLOEXEC) } ?? STDIN_FILENO
        guard descriptor >= 0 else { throw Failure(path: name, detail: "cannot open: " + String(cString: strerror(errno))) }
        defer { if path != nil { close(descriptor) } }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { throw Failure(path: name, detail: "is a directory") }
        // A regular file is read in one piece of its size; a pipe, in pieces until its end.
        var bytes = [UInt8](repeating: 0, count: status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : 0)
        var filled = 0
        while true {
            if filled == bytes.count { bytes += [UInt8](repeating: 0, count: max(1 << 16, bytes.count)) }
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 { throw Failure(path: name, detail: "cannot read: " + String(cString: strerror(errno))) }
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// Flushes the C library's buffered standard output (what Swift's `print` wrote).
    public static func flushStandardOutput() {
        fflush(nil)
    }

    /// A file opened for writing (created or emptied), or standard output / standard error.
    public final class Writer: Sendable {
        private let descriptor: Int32
        private let owned: Bool

        public static let standardOutput = Writer(descriptor: STDOUT_FILENO, owned: false)
        public static let standardError = Writer(descriptor: STDERR_FILENO, owned: false)

        private init(descriptor: Int32, owned: Bool) {
            self.descriptor = descriptor
            self.owned = owned
        }

        public convenience init(path: String) throws(Failure) {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw Failure(path: path, detail: "cannot write: " + String(cString: strerror(errno))) }
            self.init(descriptor: descriptor, owned: true)
        }

        deinit {
            if owned { close(descriptor) }
        }

        /// Writes all of `bytes` (stopping quietly if the reader went away).
        public func write(_ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
