import ObjectFiles
import PostmortemCore

/// Keeping the cache directory in order: made only where it may be, one writer at a time, within its size limit,
/// without the leftovers of interrupted writers or files of binaries that are gone.
extension IndexCache {
    /// The lock a writer of this cache holds while it writes.
    package var writerLockPath: String { directory + "/.writer.lock" }

    /// Makes the directory when it is missing; why it cannot be used otherwise (its home missing, not writable).
    package func prepare() -> String? {
        if FileSystem.isDirectory(directory) {
            return FileSystem.isWritableDirectory(directory)
                ? nil : "\(directory): not writable; the index cache is off"
        }
        if let requiredParent, !FileSystem.isDirectory(requiredParent) {
            return "\(requiredParent) does not exist; the index cache (\(directory)) is off"
        }
        do throws(FileSystem.Failure) { try FileSystem.createDirectories(directory) } catch {
            return "\(error.description); the index cache is off"
        }
        return nil
    }

    /// The temporary files of writers that are no longer running (interrupted by a crash or `kill -9`).
    package func staleTemporaryFiles() -> [String] {
        FileSystem.entries(of: directory).compactMap { entry -> String? in
            guard
                let marker = entry.name.firstRange(of: Self.fileExtension + ".tmp-")
                    ?? entry.name.firstRange(of: Self.placeExtension + ".tmp-")
            else { return nil }
            let pid = Int32(entry.name[marker.upperBound...].prefix { $0.isNumber }) ?? 0
            return pid > 0 && DetachedProcess.isRunning(pid) && pid != DetachedProcess.currentID
                ? nil : directory + "/" + entry.name
        }
    }

    /// Removes this process's own temporary files (when it is interrupted while writing).
    package func removeOwnTemporaryFiles() {
        let own = ".tmp-\(DetachedProcess.currentID)-"
        for entry in FileSystem.entries(of: directory)
        where entry.name.contains(Self.fileExtension + own) || entry.name.contains(Self.placeExtension + own) {
            FileSystem.remove(directory + "/" + entry.name)
        }
    }

    /// Removes the least recently used files until the rest fit within ``limit``; never `keeping`.
    /// - Returns: the paths removed.
    @discardableResult
    package func evict(keeping: Set<String> = []) -> [String] {
        var files = FileSystem.entries(of: directory).filter {
            !$0.isDirectory && $0.name.hasSuffix(Self.fileExtension)
        }
        .compactMap { entry -> (path: String, size: UInt64, used: Int64)? in
            let path = directory + "/" + entry.name
            return FileSystem.status(path).map { (path, $0.size, $0.modified) }
        }
        var total = files.reduce(0) { $0 + $1.size }
        guard total > limit else { return [] }
        files.sort { $0.used < $1.used }
        var removed: [String] = []
        for file in files where total > limit && !keeping.contains(file.path) {
            if FileSystem.remove(file.path) {
                total -= file.size
                removed.append(file.path)
            }
        }
        return removed
    }

    /// Removes files no lookup can use: unreadable ones, those of binaries that no longer exist anywhere a place
    /// record saw a copy of them, place records of files that are gone, and stale temporary files.
    /// - Returns: each file removed and why.
    public func prune() -> [(path: String, reason: String)] {
        var removed: [(String, String)] = []
        // The content keys some place record still finds a copy for.
        var keysInUse: Set<String> = []
        for entry in FileSystem.entries(of: directory) where entry.name.hasSuffix(Self.placeExtension) {
            let path = directory + "/" + entry.name
            guard let record = PlaceRecord.read(path), FileSystem.exists(record.imagePath),
                FileSystem.exists(record.debugFilePath)
            else {
                if FileSystem.remove(path) { removed.append((path, "its binary or debug file no longer exists")) }
                continue
            }
            keysInUse.insert(Self.hex(record.contentKey))
        }
        for entry in entries() {
            let reason: String?
            let key = entry.path.dropLast(Self.fileExtension.count).suffix(16)
            if let problem = entry.problem {
                reason = problem
            } else if let image = entry.image, !FileSystem.exists(image), !keysInUse.contains(String(key)) {
                reason = "\(image) no longer exists, nor any copy of it the cache knows"
            } else {
                reason = nil
            }
            if let reason, FileSystem.remove(entry.path) { removed.append((entry.path, reason)) }
        }
        for path in staleTemporaryFiles() where FileSystem.remove(path) {
            removed.append((path, "left by an interrupted writer"))
        }
        return removed
    }
}
