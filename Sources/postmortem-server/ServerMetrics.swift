import Prometheus
import Symbolication
import SymbolicationService

/// What `/metrics` shows, in Prometheus' text format: requests by route and status, their latency, the images open
/// and the index-cache files they read or lacked, and debuginfod fetches.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// Latency buckets from a warm one-frame job to a cold crash log of a large binary.
    private static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
        .seconds(10)
    ]
    private let imagesOpen: Gauge
    /// Requests begun and not yet answered.
    let requestsInFlight: Gauge
    private let imagesOpened: Gauge
    private let imagesClosed: Gauge
    private let indexCacheHits: Gauge
    private let indexCacheMisses: Gauge
    private let indexCacheWritten: Gauge
    let debuginfodFetches: CountingRemoteDebugFiles.Counters

    init() {
        imagesOpen = registry.makeGauge(name: "postmortem_images_open", help: "Symbolizers open now, busy or idle.")
        requestsInFlight = registry.makeGauge(
            name: "postmortem_requests_in_flight", help: "Requests begun and not yet answered.")
        imagesOpened = registry.makeGauge(
            name: "postmortem_images_opened_total", help: "Symbolizers opened since start.")
        imagesClosed = registry.makeGauge(
            name: "postmortem_images_closed_total",
            help: "Symbolizers closed to stay within --max-open-images.")
        indexCacheHits = registry.makeGauge(
            name: "postmortem_index_cache_hits_total",
            help: "Images opened from an index-cache file.")
        indexCacheMisses = registry.makeGauge(
            name: "postmortem_index_cache_misses_total",
            help: "Images opened from their DWARF, with no sound index-cache file.")
        indexCacheWritten = registry.makeGauge(
            name: "postmortem_index_cache_files_written_total",
            help: "Index-cache files written, or found written by another process meanwhile.")
        debuginfodFetches = CountingRemoteDebugFiles.Counters(
            fetched: registry.makeCounter(
                name: "postmortem_debuginfod_fetches_total", labels: [("outcome", "fetched")],
                help: "Artifacts asked of debuginfod, by outcome."),
            unavailable: registry.makeCounter(
                name: "postmortem_debuginfod_fetches_total", labels: [("outcome", "unavailable")],
                help: "Artifacts asked of debuginfod, by outcome."))
    }

    /// Counts one request answered.
    func record(route: String, status: Int, duration: Duration) {
        registry.makeCounter(
            name: "postmortem_requests_total", labels: [("route", route), ("status", "\(status)")],
            help: "Requests answered, by route and status."
        ).increment()
        registry.makeDurationHistogram(
            name: "postmortem_request_duration_seconds", labels: [("route", route)],
            buckets: Self.buckets, help: "Time from a request's head to its answer."
        )
        .record(duration)
    }

    /// The text of `/metrics`, with the pool's figures as they are now.
    func exposition(images: OpenedImages) -> [UInt8] {
        let statistics = images.statistics
        imagesOpen.set(Double(statistics.open))
        imagesOpened.set(Double(statistics.opened))
        imagesClosed.set(Double(statistics.closed))
        indexCacheHits.set(Double(statistics.indexCacheHits))
        indexCacheMisses.set(Double(statistics.opened - statistics.indexCacheHits))
        indexCacheWritten.set(Double(statistics.indexCacheFilesWritten))
        return registry.emitToBuffer()
    }
}
