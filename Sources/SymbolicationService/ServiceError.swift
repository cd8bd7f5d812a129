/// Why a request gets no answer: an HTTP status and one line that says what was wrong, for the client.
package struct ServiceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status code: 400 for a request that cannot be answered as sent, 413 for one too large, 503 when the
    /// server is stopping, 504 when the answer took too long.
    package var status: Int
    /// One line, without a trailing period.
    package var reason: String

    /// An error answered with HTTP status `status` and `reason` (one line).
    package init(status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    /// A 400: the request cannot be answered as sent, for `reason`.
    package static func badRequest(_ reason: String) -> ServiceError { ServiceError(status: 400, reason) }

    /// The reason, as the client is told it.
    package var description: String { reason }
}
