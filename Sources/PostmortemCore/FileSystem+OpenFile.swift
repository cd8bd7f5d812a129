import Glibc

extension FileSystem {
    /// A file open for reading, closed when the value goes: its descriptor is for the code that hands it to a C
    /// library (libelf reads through it; a mapping is made from it).
    package final class OpenFile {
        /// The path it was opened by.
        package let path: String
        /// The open descriptor, closed when this object goes.
        package let descriptor: Int32
        /// The size in bytes and whether it is a directory, as the file said when it was opened.
        package let size: UInt64
        /// Whether the path names a directory (which is not read as a file).
        package let isDirectory: Bool
        /// Whether the path names a regular file (not a directory, a pipe or a device).
        package let isRegularFile: Bool

        /// Opens `path` for reading.
        /// - Throws: ``Failure`` whose `detail` is the system's words alone (`No such file or directory`).
        package init(path: String) throws(Failure) {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Failure(path: path, detail: String(cString: strerror(errno))) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw Failure(path: path, detail: reason)
            }
            self.path = path
            self.descriptor = descriptor
            size = UInt64(max(status.st_size, 0))
            isDirectory = status.st_mode & S_IFMT == S_IFDIR
            isRegularFile = status.st_mode & S_IFMT == S_IFREG
        }

        deinit {
            close(descriptor)
        }

        /// The whole file mapped read-only (empty for an empty file); the mapping outlives the descriptor, and is
        /// released by ``FileSystem/unmap(_:)``.
        /// - Throws: ``Failure`` whose `detail` is the system's words alone.
        package func map() throws(Failure) -> UnsafeRawBufferPointer {
            let count = Int(size)
            guard count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            guard let start = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), start != MAP_FAILED else {
                throw Failure(path: path, detail: String(cString: strerror(errno)))
            }
            return UnsafeRawBufferPointer(start: start, count: count)
        }

        /// Up to `count` bytes from byte `offset` (fewer at the end of the file, none when it cannot be read).
        package func read(count: Int, at offset: UInt64) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            bytes.removeLast(count - max(read, 0))
            return bytes
        }

        /// Reads the file from its start to its end in chunks of `chunkSize` bytes, each given to `body`.
        /// - Returns: false when a read failed.
        package func readSequentially(chunkSize: Int = 1 << 16, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
            defer { buffer.deallocate() }
            var offset: off_t = 0
            while true {
                let count = pread(descriptor, buffer.baseAddress, buffer.count, offset)
                if count < 0 { return false }
                if count == 0 { return true }
                body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                offset += off_t(count)
            }
        }
    }

    /// Releases a mapping ``OpenFile/map()`` made.
    package static func unmap(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress else { return }
        munmap(UnsafeMutableRawPointer(mutating: start), bytes.count)
    }

    /// What the system said of the last call that failed (`errno`), in its words.
    package static var lastSystemError: String { String(cString: strerror(errno)) }
}
