/// What a server accepts of one request, and how long it works on one.
package struct ServiceLimits: Hashable, Sendable {
    /// The largest body read, in bytes; a larger one gets 413.
    package var maximumBodySize: Int
    /// The most jobs in one Symbolication API request (Mozilla's Eliot allows 10).
    package var maximumJobs: Int
    /// The most frames of all the jobs of one request.
    package var maximumFrames: Int
    /// The longest a request may take, from its first byte to its answer; past it, it gets 504.
    package var timeout: Duration

    /// Limits with the server's defaults: 32 MiB bodies, 10 jobs, 100,000 frames, 30 seconds.
    package init(
        maximumBodySize: Int = 32 << 20, maximumJobs: Int = 10, maximumFrames: Int = 100_000,
        timeout: Duration = .seconds(30)
    ) {
        self.maximumBodySize = maximumBodySize
        self.maximumJobs = maximumJobs
        self.maximumFrames = maximumFrames
        self.timeout = timeout
    }
}
