/// The bounds of one request, redirects included.
package struct HTTPLimits: Sendable {
    /// How long a connection may take to be made: name lookup, TCP and TLS; `nil` for no bound.
    package var connectTimeout: Duration?
    /// How long the server may send nothing (or take nothing) before the request ends; `nil` for no bound.
    package var idleTimeout: Duration?
    /// When the whole request ends, body included; `nil` for never.
    package var deadline: ContinuousClock.Instant?
    /// How many redirects are followed.
    package var maximumRedirects: Int

    package init(
        connectTimeout: Duration? = nil, idleTimeout: Duration? = nil, deadline: ContinuousClock.Instant? = nil,
        maximumRedirects: Int = 5
    ) {
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.deadline = deadline
        self.maximumRedirects = maximumRedirects
    }
}
