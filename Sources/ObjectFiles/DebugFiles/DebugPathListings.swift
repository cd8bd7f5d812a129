import PostmortemCore
import Synchronization

/// What the `-d` folders hold, listed once and shared by every symbolicator that searches them (a server's
/// requests), instead of once per symbolicator; a listing older than ``freshness`` is taken again when next asked, so
/// files copied in are found. Safe to call from any thread.
package final class DebugPathListings: Sendable {
    /// How old a listing may be before it is taken again.
    package let freshness: Duration
    private let listings = Mutex<[String: (entries: [(name: String, path: String)], at: ContinuousClock.Instant)]>([:])

    /// Listings taken again once older than `freshness` (two seconds unless told).
    package init(freshness: Duration = .seconds(2)) {
        self.freshness = freshness
    }

    /// The entries below `root`, nearest first, as ``BinaryLocator`` lists them.
    package func entries(below root: String, list: (String) -> [(name: String, path: String)]) -> [(
        name: String, path: String
    )] {
        if let known = listings.withLock({ $0[root] }), known.at.duration(to: .now) < freshness { return known.entries }
        // Listed outside the lock: two callers may list at once, and the later listing stays.
        let entries = list(root)
        listings.withLock { $0[root] = (entries, .now) }
        return entries
    }
}
