import Glibc

/// The one blocking wait of the HTTP client and server: `poll` on a descriptor and a cancellation signal's eventfd,
/// bounded by a moment.
package enum DescriptorWait {
    /// How a wait ended.
    package enum Outcome: Equatable {
        /// The descriptor is ready for the events asked (or has an error or hang-up to report, which the next call on
        /// it reads).
        case ready
        /// The moment passed first.
        case timedOut
        /// The signal was raised, before the wait or during it.
        case cancelled
        /// `poll` failed with this errno.
        case failed(errno: Int32)
    }

    /// Waits until `descriptor` is ready for `events`, `moment` passes, or `cancellation` is raised.
    package static func until(
        _ descriptor: Int32, events: Int16, moment: ContinuousClock.Instant?, cancellation: CancellationSignal?
    ) -> Outcome {
        while true {
            if cancellation?.isCancelled == true { return .cancelled }
            var timeout: Int32 = -1
            if let moment {
                let left = ContinuousClock.now.duration(to: moment)
                if left <= .zero { return .timedOut }
                let (seconds, attoseconds) = left.components
                // Rounded up, so that a wait never ends just before its moment and spins.
                let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
                timeout = Int32(clamping: milliseconds)
            }
            // A negative descriptor (no signal, or none could be made) is ignored by poll.
            var descriptors = [
                pollfd(fd: descriptor, events: events, revents: 0),
                pollfd(fd: cancellation?.descriptor ?? -1, events: Int16(POLLIN), revents: 0)
            ]
            if poll(&descriptors, nfds_t(descriptors.count), timeout) < 0 {
                if errno == EINTR { continue }
                return .failed(errno: errno)
            }
            if descriptors[1].revents != 0 || cancellation?.isCancelled == true { return .cancelled }
            if descriptors[0].revents != 0 { return .ready }
        }
    }
}
