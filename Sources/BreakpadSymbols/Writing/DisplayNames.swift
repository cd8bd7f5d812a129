import Dispatch
import Synchronization

/// The names Breakpad records show for names as stored, worked out once each, on two threads.
struct DisplayNames {
    private let shown: [String: String]

    /// Demangles each of `stored` (``BreakpadNames/displayName(_:)``) that `known` does not already show.
    init(_ stored: Set<String>, known: [String: String] = [:]) {
        let names = known.isEmpty ? Array(stored) : stored.filter { known[$0] == nil }
        let shares = 2
        let results = Mutex<[[String]]>(Array(repeating: [], count: shares))
        DispatchQueue.concurrentPerform(iterations: shares) { share in
            let namer = BreakpadNames()
            let part = stride(from: share, to: names.count, by: shares).map { namer.displayName(names[$0]) }
            results.withLock { $0[share] = part }
        }
        var shown = known
        shown.reserveCapacity(known.count + names.count)
        results.withLock { parts in
            for (share, part) in parts.enumerated() {
                for (offset, text) in part.enumerated() { shown[names[share + offset * shares]] = text }
            }
        }
        self.shown = shown
    }

    /// The name shown for `stored` (itself, if it was not among those worked out).
    subscript(_ stored: String) -> String { shown[stored] ?? stored }
}
