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

/// The one blocking wait of a request: poll on a descriptor and the cancellation signal, bounded by expiries.
enum Waiting {
    /// Returns once `descriptor` is ready for `events` (or has an error or hang-up to report, which the next call
    /// on it reads); throws ``HTTPFailure/cancelled`` or the failure of the earliest expiry passed.
    static func until(
        _ descriptor: Int32, events: Int16, expiries: [Expiry?], _ cancellation: CancellationSignal
    ) throws(HTTPFailure) {
        let earliest = expiries.compactMap(\.self).min { $0.moment < $1.moment }
        while true {
            if cancellation.isCancelled { throw .cancelled }
            var timeout: Int32 = -1
            if let earliest {
                let left = ContinuousClock.now.duration(to: earliest.moment)
                if left <= .zero { throw earliest.failure }
                let (seconds, attoseconds) = left.components
                // Rounded up, so that a wait never ends just before its moment and spins.
                let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
                timeout = Int32(clamping: milliseconds)
            }
            var descriptors = [
                pollfd(fd: descriptor, events: events, revents: 0),
                pollfd(fd: cancellation.descriptor, events: Int16(POLLIN), revents: 0)
            ]
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .system(call: "poll", errno: errno)
            }
            if descriptors[1].revents != 0 || cancellation.isCancelled { throw .cancelled }
            if descriptors[0].revents != 0 { return }
        }
    }
}
