import Glibc

extension FileSystem {
    /// A file open for reading, closed when the value goes: its descriptor is for the code that hands it to a C
    /// library (libelf reads through it; a mapping is made from it).
    public final class OpenFile {
        /// The path it was opened by.
        public let path: String
        /// The open descriptor, closed when this object goes.
        public let descriptor: Int32
        /// The size in bytes and whether it is a directory, as the file said when it was opened.
        public let size: UInt64
        /// Whether the path names a directory (which is not read as a file).
        public let isDirectory: Bool

        /// Opens `path` for reading.
        /// - Throws: ``Failure`` whose `detail` is the system's words alone (`No such file or directory`).
        public init(path: String) throws(Failure) {
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
        }

        deinit {
            close(descriptor)
        }

        /// Up to `count` bytes from byte `offset` (fewer at the end of the file, none when it cannot be read).
        public func read(count: Int, at offset: UInt64) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            bytes.removeLast(count - max(read, 0))
            return bytes
        }

        /// Reads the file from its start to its end in chunks of `chunkSize` bytes, each given to `body`.
        /// - Returns: false when a read failed.
        public func readSequentially(chunkSize: Int = 1 << 16, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
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
}
