/// A request that could not be read as HTTP/1.1: the status it is answered with (400, 408, 431, 501 or 505) and why,
/// in one line. The connection is closed after the answer: where the next request would start is not known.
package struct RejectedRequest: Error, Sendable {
    package let status: Int
    package let reason: String

    init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}
