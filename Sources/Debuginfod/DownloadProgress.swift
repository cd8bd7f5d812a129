import Synchronization

/// A progress line on standard error, redrawn in place while a file downloads: what, from where, how much, how fast.
/// Drawn at most ten times a second, whatever the chunk size.
final class DownloadProgress: Sendable {
    private let write: @Sendable (String) -> Void
    private let lastDrawn = Mutex<ContinuousClock.Instant?>(nil)

    init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    func update(_ label: String, received: Int, expected: Int?, since start: ContinuousClock.Instant) {
        let now = ContinuousClock.now
        let draws = lastDrawn.withLock { last in
            if let last, now - last < .milliseconds(100) { return false }
            last = now
            return true
        }
        guard draws else { return }
        let amount = expected.map { "\(Self.megabytes(received)) of \(Self.megabytes($0))" } ?? Self.megabytes(received)
        write("\r\u{1B}[KDownloading \(label): \(amount), \(Self.rate(received, since: start, now: now))")
    }

    func finish(_ label: String, received: Int, since start: ContinuousClock.Instant) {
        lastDrawn.withLock { $0 = nil }
        write(
            "\r\u{1B}[KDownloaded \(label): \(Self.megabytes(received)), \(Self.rate(received, since: start, now: .now))\n"
        )
    }

    /// KB below a megabyte, else MB with one decimal.
    private static func megabytes(_ bytes: Int) -> String {
        if bytes < 1 << 20 { return "\((bytes + 1023) >> 10) KB" }
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    private static func rate(_ bytes: Int, since start: ContinuousClock.Instant, now: ContinuousClock.Instant) -> String
    {
        let elapsed = now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds > 0 else { return "-- MB/s" }
        let tenths = Int((Double(bytes) / seconds / 1_048_576 * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) MB/s"
    }
}
