import PostmortemCore
import Synchronization

/// The ELF files below debug-file roots by build-id: what finds a debug file renamed at will (no debug link, not
/// `NAME.debug`, not in a `.build-id` tree) by the one thing that ties it to its binary. Each root is read once (its
/// files' headers), again when older than ``freshness``, and only when a binary got that far without a debug file.
/// Shared by every copy of the ``DebugFileSearch`` that made it, from any thread.
package final class BuildIDCatalog: Sendable {
    /// How old a root's catalog may be before it is read again (a server's folders change under it).
    package let freshness: Duration
    private let roots = Mutex<[String: (files: [BuildID: [String]], at: ContinuousClock.Instant)]>([:])

    /// A catalog whose roots are read again once older than `freshness`.
    package init(freshness: Duration = .seconds(10)) {
        self.freshness = freshness
    }

    /// The ELF files below `root` (8 levels deep, as the other candidates) whose build-id is `buildID`.
    package func files(below root: String, buildID: BuildID) -> [String] {
        let now = ContinuousClock.now
        if let known = roots.withLock({ $0[root] }), now - known.at < freshness { return known.files[buildID] ?? [] }
        // Read outside the lock: another thread asking for the same root meanwhile reads it too, which costs time only.
        var files: [BuildID: [String]] = [:]
        for entry in BinaryLocator.entries(below: root, depth: 8) where !entry.path.containsBytes("/.build-id/") {
            guard FileSystem.read(entry.path, offset: 0, count: 4) == [0x7F, 0x45, 0x4C, 0x46],
                let found = try? ObjectFileReader.read(path: entry.path).buildID
            else { continue }
            files[found, default: []].append(entry.path)
        }
        roots.withLock { $0[root] = (files, now) }
        return files[buildID] ?? []
    }
}
