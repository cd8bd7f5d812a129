import Symbolication
import SymbolicationService

/// What `/metrics` shows, in Prometheus' text format: requests by route and status, their latency, the images open
/// and the index-cache files they read or lacked, and debuginfod fetches.
final class ServerMetrics: Sendable {
    private let registry = MetricsRegistry()
    /// Latency buckets from a warm one-frame job to a cold crash log of a large binary, in seconds.
    private static let buckets = [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    init() {
        registry.declare("postmortem_images_open", .gauge, help: "Symbolizers open now, busy or idle.")
        registry.declare("postmortem_requests_in_flight", .gauge, help: "Requests begun and not yet answered.")
        registry.declare("postmortem_images_opened_total", .gauge, help: "Symbolizers opened since start.")
        registry.declare(
            "postmortem_images_closed_total", .gauge, help: "Symbolizers closed to stay within --max-open-images.")
        registry.declare(
            "postmortem_index_cache_hits_total", .gauge, help: "Images opened from an index-cache file.")
        registry.declare(
            "postmortem_index_cache_misses_total", .gauge,
            help: "Images opened from their DWARF, with no sound index-cache file.")
        registry.declare(
            "postmortem_index_cache_files_written_total", .gauge,
            help: "Index-cache files written, or found written by another process meanwhile.")
        registry.declare(
            "postmortem_debuginfod_fetches_total", .counter, help: "Artifacts asked of debuginfod, by outcome.")
        registry.declare("postmortem_requests_total", .counter, help: "Requests answered, by route and status.")
        registry.declare(
            "postmortem_request_duration_seconds", .histogram, help: "Time from a request's head to its answer.",
            buckets: Self.buckets)
        registry.set("postmortem_requests_in_flight", to: 0)
        for outcome in ["fetched", "unavailable"] {
            registry.add("postmortem_debuginfod_fetches_total", [("outcome", outcome)], 0)
        }
    }

    /// A request begun (`1`) or answered (`-1`).
    func requestsInFlight(_ change: Double) { registry.add("postmortem_requests_in_flight", [], change) }

    /// Counts an artifact asked of debuginfod: `fetched` or `unavailable`.
    func debuginfodFetch(_ outcome: String) {
        registry.add("postmortem_debuginfod_fetches_total", [("outcome", outcome)])
    }

    /// Counts one request answered.
    func record(route: String, status: Int, duration: Duration) {
        registry.add("postmortem_requests_total", [("route", route), ("status", "\(status)")])
        let (seconds, attoseconds) = duration.components
        registry.observe(
            "postmortem_request_duration_seconds", [("route", route)], Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The text of `/metrics`, with the pool's figures as they are now.
    func exposition(images: OpenedImages) -> [UInt8] {
        let statistics = images.statistics
        registry.set("postmortem_images_open", to: Double(statistics.open))
        registry.set("postmortem_images_opened_total", to: Double(statistics.opened))
        registry.set("postmortem_images_closed_total", to: Double(statistics.closed))
        registry.set("postmortem_index_cache_hits_total", to: Double(statistics.indexCacheHits))
        registry.set(
            "postmortem_index_cache_misses_total", to: Double(statistics.opened - statistics.indexCacheHits))
        registry.set("postmortem_index_cache_files_written_total", to: Double(statistics.indexCacheFilesWritten))
        return registry.exposition()
    }
}
