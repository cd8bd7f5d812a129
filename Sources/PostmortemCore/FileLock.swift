import Glibc
import PostmortemCore

/// An exclusive advisory lock on a file (`flock`), held while the value lives: one writer of a cache at a time,
/// whichever process it is in. The system drops it when the process ends, however it ends.
package final class FileLock {
    private let descriptor: Int32

    /// Takes the lock on `path` (made when missing): without waiting unless `waiting`; `nil` when another holds it
    /// (and `waiting` is false) or it cannot be made.
    package init?(path: String, waiting: Bool = false) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        var taken = flock(descriptor, waiting ? LOCK_EX : LOCK_EX | LOCK_NB)
        while taken != 0, waiting, errno == EINTR { taken = flock(descriptor, LOCK_EX) }
        guard taken == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Whether another holds the lock on `path` now (a lock taken and dropped at once to find out).
    package static func isHeld(_ path: String) -> Bool {
        guard FileSystem.exists(path) else { return false }
        return FileLock(path: path) == nil
    }
}
