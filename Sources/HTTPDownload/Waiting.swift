import BlockingIO
import Glibc

/// A moment after which a wait ends, and the failure it ends with.
struct Expiry {
    var moment: ContinuousClock.Instant
    var failure: HTTPFailure

    /// `duration` from now, or no expiry.
    static func after(_ duration: Duration?, _ failure: HTTPFailure) -> Expiry? {
        duration.map { Expiry(moment: .now + $0, failure: failure) }
    }
}

/// The one blocking wait of a request: ``DescriptorWait`` on a descriptor and the cancellation signal, bounded by
/// expiries.
enum Waiting {
    /// Returns once `descriptor` is ready for `events` (or has an error or hang-up to report, which the next call
    /// on it reads); throws ``HTTPFailure/cancelled`` or the failure of the earliest expiry passed.
    static func until(
        _ descriptor: Int32, events: Int16, expiries: [Expiry?], _ cancellation: CancellationSignal
    ) throws(HTTPFailure) {
        let earliest = expiries.compactMap(\.self).min { $0.moment < $1.moment }
        switch DescriptorWait.until(descriptor, events: events, moment: earliest?.moment, cancellation: cancellation) {
        case .ready: return
        case .cancelled: throw .cancelled
        case .timedOut: throw earliest?.failure ?? .cancelled
        case .failed(let number): throw .system(call: "poll", errno: number)
        }
    }
}
