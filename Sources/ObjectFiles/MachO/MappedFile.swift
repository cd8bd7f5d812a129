import Glibc

/// A file mapped read-only into memory; unmapped in `deinit`, and nowhere else.
final class MappedFile {
    let path: String
    let bytes: UnsafeRawBufferPointer

    init(path: String) throws(ObjectFileError) {
        self.path = path
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ObjectFileError(.cannotOpen, path: path, detail: String(cString: strerror(errno)))
        }
        if status.st_mode & S_IFMT == S_IFDIR { throw ObjectFileError(.isDirectory, path: path, detail: "") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ObjectFileError(.cannotOpen, path: path, detail: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let size = Int(status.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else {
            throw ObjectFileError(.cannotOpen, path: path, detail: String(cString: strerror(errno)))
        }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
