import Glibc

/// The file-system calls the rest of Postmortem needs, kept here with the other code that talks to the
/// C library: listing directories, reading whole files and standard input, writing output.
package enum FileSystem {
    /// Why a file could not be read or written: the path and the system's words.
    package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The path the failure concerns.
        package var path: String
        /// What went wrong, in the system's words.
        package var detail: String
        /// The path and the detail, in one line.
        package var description: String { "\(path): \(detail)" }

        /// A failure to read `path`: `detail` says why.
        package init(path: String, detail: String) {
            self.path = path
            self.detail = detail
        }
    }

    /// Whether anything exists at `path` (links followed).
    package static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Whether `path` is a regular file (links followed).
    package static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Whether `path` is a directory (links followed).
    package static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The names in a directory (without `.` and `..`), each with whether it is a directory or a regular file, as the
    /// directory says (neither for a link, or where the file system does not say); empty when unreadable.
    package static func entries(of directory: String) -> [(name: String, isDirectory: Bool, isRegularFile: Bool)] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var entries: [(name: String, isDirectory: Bool, isRegularFile: Bool)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            entries.append((name, entry.pointee.d_type == UInt8(DT_DIR), entry.pointee.d_type == UInt8(DT_REG)))
        }
        return entries
    }

    /// The whole file at `path`, or standard input when `path` is `nil`; an input larger than `maximumSize` bytes
    /// is an error, found before it is read (a regular file) or once that much has arrived (a pipe).
    package static func read(_ path: String?, maximumSize: Int = .max) throws(Failure) -> [UInt8] {
        let name = path ?? "-"
        let descriptor = path.map { open($0, O_RDONLY | O_CLOEXEC) } ?? STDIN_FILENO
        guard descriptor >= 0 else {
            throw Failure(path: name, detail: "cannot open: " + String(cString: strerror(errno)))
        }
        defer { if path != nil { close(descriptor) } }
        var status = stat()
        let known = fstat(descriptor, &status) == 0
        if known, status.st_mode & S_IFMT == S_IFDIR { throw Failure(path: name, detail: "is a directory") }
        let size = known && status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : nil
        return try readToEnd(descriptor, name: name, size: size, maximumSize: maximumSize)
    }

    /// The whole of `file`, from its start; a file larger than `maximumSize` bytes is an error, found before it is
    /// read. For a caller that opened the file to look at its size first (one open, not two).
    package static func read(_ file: OpenFile, maximumSize: Int = .max) throws(Failure) -> [UInt8] {
        if file.isDirectory { throw Failure(path: file.path, detail: "is a directory") }
        guard lseek(file.descriptor, 0, SEEK_SET) == 0 else {
            throw Failure(path: file.path, detail: "cannot read: " + String(cString: strerror(errno)))
        }
        return try readToEnd(
            file.descriptor, name: file.path, size: file.isRegularFile ? Int(file.size) : nil, maximumSize: maximumSize)
    }

    /// What is left to read of `descriptor`: a regular file of `size` bytes in one piece of its size, anything else
    /// (`size` `nil`: a pipe) in pieces until its end.
    private static func readToEnd(_ descriptor: Int32, name: String, size: Int?, maximumSize: Int) throws(Failure)
        -> [UInt8]
    {
        let tooLarge = Failure(path: name, detail: "larger than \(maximumSize >> 20) MB, the most this command reads")
        if let size, size > maximumSize { throw tooLarge }
        // One byte more than the size, so the read that finds the end needs no larger buffer; not zeroed first (every
        // log of a folder is read here, and the read writes every byte kept).
        var filled = 0
        var failure: Failure?
        let capacity = size.map { $0 + 1 } ?? 0
        var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            while filled < buffer.count, let base = buffer.baseAddress {
                let count = Glibc.read(descriptor, base + filled, buffer.count - filled)
                if count < 0 {
                    failure = Failure(path: name, detail: "cannot read: " + String(cString: strerror(errno)))
                }
                if count <= 0 { break }
                filled += count
            }
            initialized = filled
        }
        if let failure { throw failure }
        // A file of no size known (a pipe), or that grew since its size was taken, is read on, the buffer growing.
        let readsOn = size == nil || filled == capacity
        while readsOn {
            if filled > maximumSize { throw tooLarge }
            if filled == bytes.count { bytes += [UInt8](repeating: 0, count: max(1 << 16, bytes.count)) }
            let count = bytes.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled)
            }
            if count < 0 { throw Failure(path: name, detail: "cannot read: " + String(cString: strerror(errno))) }
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// Up to `count` bytes of the file at `path` from byte `offset` (fewer at its end); `nil` when it cannot be read.
    package static func read(_ path: String, offset: UInt64, count: Int) -> [UInt8]? {
        guard count >= 0, offset <= UInt64(Int64.max) else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
            }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { return nil }
            if read == 0 { break }
            filled += read
        }
        bytes.removeLast(count - filled)
        return bytes
    }

    /// The value of the environment variable `name`, when it is set and not empty.
    /// The process's current directory, or `nil` when it cannot be named (removed, say).
    package static var currentDirectory: String? {
        guard let directory = getcwd(nil, 0) else { return nil }
        defer { free(directory) }
        return String(cString: directory)
    }

    /// The environment variable `name`, if set.
    package static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// `path` with symbolic links, `.` and `..` resolved; `path` itself when it cannot be resolved.
    package static func realPath(_ path: String) -> String {
        guard let resolved = Glibc.realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The size and modification time (nanoseconds since 1970) of the file at `path`.
    package static func status(_ path: String) -> (size: UInt64, modified: Int64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_size), Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }

    /// What tells the file at `path` from any other and from itself before a change: its device and inode, size,
    /// modification time, and status-change time (nanoseconds since 1970), which no copy that keeps times (`cp -p`,
    /// an archive) and no rewrite can set back. `nil` when it does not exist.
    package static func fingerprint(_ path: String) -> [Int64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [
            Int64(bitPattern: UInt64(status.st_dev)), Int64(bitPattern: UInt64(status.st_ino)), Int64(status.st_size),
            Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
            Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
        ]
    }

    /// The permission bits of the file at `path` (`0o400`, say), or `nil` when it does not exist.
    package static func permissions(of path: String) -> UInt32? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return UInt32(status.st_mode) & 0o7777
    }

    /// How many whole seconds ago the file at `path` was last modified, or `nil` when it does not exist.
    package static func secondsSinceModified(_ path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) - Int64(status.st_mtim.tv_sec)
    }

    /// Creates an empty file at `path` with `permissions`, replacing what was there; false when it could not.
    @discardableResult
    package static func createEmptyFile(_ path: String, permissions: UInt32) -> Bool {
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
        guard descriptor >= 0 else { return false }
        close(descriptor)
        // The process's umask must not widen what was asked (a 000 file marks a miss for elfutils' client too).
        chmod(path, mode_t(permissions))
        return true
    }

    /// Creates `path` and the directories above it that are missing.
    package static func createDirectories(_ path: String) throws(Failure) {
        if isDirectory(path) { return }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if isDirectory(prefix) { continue }
            guard mkdir(prefix, 0o755) == 0 || errno == EEXIST else {
                throw Failure(path: prefix, detail: "cannot create directory: " + String(cString: strerror(errno)))
            }
        }
    }

    /// A file written in pieces (appended, and patched at earlier offsets) that appears at its path only
    /// when complete: it is written beside it under a temporary name and renamed over it by ``commit()``.
    /// Dropped without a commit, the temporary file is removed.
    package final class AtomicFile {
        /// Where the file appears once committed.
        package let path: String
        /// Where the file is written until ``commit()``: beside ``path``, so that it can be read back before then.
        package let temporary: String
        /// The permission bits the file gets when committed.
        private let permissions: UInt32
        private var descriptor: Int32
        /// The number of bytes appended so far.
        package private(set) var count = 0

        /// Starts a file for `path`, written under a temporary name beside it, with `permissions` once committed.
        package init(path: String, permissions: UInt32 = 0o644) throws(Failure) {
            self.path = path
            self.permissions = permissions
            temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw Failure(path: temporary, detail: "cannot write: " + String(cString: strerror(errno)))
            }
        }

        deinit {
            if descriptor >= 0 {
                close(descriptor)
                unlink(temporary)
            }
        }

        /// Appends `bytes` at the end.
        package func append(_ bytes: [UInt8]) throws(Failure) {
            try write(bytes, at: count)
            count += bytes.count
        }

        /// Overwrites the bytes at `offset` (below ``count``) with `bytes`.
        package func overwrite(at offset: Int, with bytes: [UInt8]) throws(Failure) {
            try write(bytes, at: offset)
        }

        private func write(_ bytes: [UInt8], at offset: Int) throws(Failure) {
            var done = 0
            while done < bytes.count {
                let written = bytes[done...].withUnsafeBytes {
                    pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset + done))
                }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    throw Failure(path: path, detail: "cannot write: " + String(cString: strerror(errno)))
                }
                done += written
            }
        }

        /// Closes the file and renames it to ``path``.
        package func commit() throws(Failure) {
            close(descriptor)
            descriptor = -1
            if permissions != 0o644 { chmod(temporary, mode_t(permissions)) }
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw Failure(path: path, detail: "cannot write: " + reason)
            }
        }
    }

    /// Whether standard output is a terminal (not a file or a pipe).
    package static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether standard error is a terminal (where progress lines may be redrawn).
    package static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether this process may create and write files in the directory `path`.
    package static func isWritableDirectory(_ path: String) -> Bool {
        isDirectory(path) && access(path, W_OK | X_OK) == 0
    }

    /// Marks the file at `path` as just used (its modification time set to now), for least-recently-used eviction.
    package static func touch(_ path: String) {
        utimensat(AT_FDCWD, path, nil, 0)
    }

    /// Removes the file at `path`; false when it could not be removed.
    @discardableResult
    package static func remove(_ path: String) -> Bool {
        unlink(path) == 0
    }

    /// Up to `limit` bytes of standard input: what has arrived, waiting only when nothing has.
    /// Empty at the end of the input (or on a read error).
    package static func readAvailableStandardInput(limit: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        while true {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, limit) }
            if count < 0, errno == EINTR { continue }
            bytes.removeLast(limit - max(count, 0))
            return bytes
        }
    }

    /// Flushes the C library's buffered standard output (what Swift's `print` wrote).
    package static func flushStandardOutput() {
        fflush(nil)
    }

    /// A file opened for writing (created or emptied), or standard output / standard error.
    package final class Writer: Sendable {
        private let descriptor: Int32
        private let owned: Bool

        /// The process's standard output.
        package static let standardOutput = Writer(descriptor: STDOUT_FILENO, owned: false)
        /// The process's standard error.
        package static let standardError = Writer(descriptor: STDERR_FILENO, owned: false)

        private init(descriptor: Int32, owned: Bool) {
            self.descriptor = descriptor
            self.owned = owned
        }

        /// The file at `path`, created or emptied, for writing.
        package convenience init(path: String) throws(Failure) {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw Failure(path: path, detail: "cannot write: " + String(cString: strerror(errno)))
            }
            self.init(descriptor: descriptor, owned: true)
        }

        deinit {
            if owned { close(descriptor) }
        }

        /// Writes all of `bytes` (stopping quietly if the reader went away).
        package func write(_ bytes: [UInt8]) {
            write(bytes[...])
        }

        /// Writes all of `pieces`, one after the other, with as few system calls as they allow (one, unless the
        /// reader takes less at a time); stops quietly if the reader went away.
        package func write(_ pieces: [[UInt8]]) {
            var index = 0
            while index < pieces.count {
                // At most 64 pieces a call (IOV_MAX is 1,024; each piece's buffer is held open one call deeper).
                let batch = pieces[index..<min(index + 64, pieces.count)]
                let expected = batch.reduce(0) { $0 + $1.count }
                let written = writeGathered(batch)
                if written < 0, errno == EINTR { continue }
                if written <= 0 && expected > 0 { return }
                if written < expected {
                    // A reader that took part: the rest of the batch piece by piece.
                    var skipped = written
                    for piece in batch {
                        if skipped >= piece.count {
                            skipped -= piece.count
                            continue
                        }
                        write(piece[(piece.startIndex + skipped)...])
                        skipped = 0
                    }
                }
                index += batch.count
            }
        }

        /// One `writev` of `pieces`; what it returned.
        private func writeGathered(_ pieces: ArraySlice<[UInt8]>) -> Int {
            var vectors: [iovec] = []
            vectors.reserveCapacity(pieces.count)
            func gather(_ rest: ArraySlice<[UInt8]>) -> Int {
                guard let piece = rest.first else {
                    return vectors.withUnsafeBufferPointer { writev(descriptor, $0.baseAddress, Int32($0.count)) }
                }
                return piece.withUnsafeBytes { bytes in
                    vectors.append(
                        iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count))
                    return gather(rest.dropFirst())
                }
            }
            return gather(pieces)
        }

        /// Writes all of `bytes` (stopping quietly if the reader went away).
        package func write(_ bytes: ArraySlice<UInt8>) {
            var offset = bytes.startIndex
            while offset < bytes.endIndex {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
