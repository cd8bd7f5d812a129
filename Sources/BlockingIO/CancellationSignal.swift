import CLinuxEvents
import Glibc
import Synchronization

/// Ends waits at once, from any thread: every wait of a connection polls this eventfd beside its socket, so a download
/// another server has answered stops without waiting out its timeout, and a server's idle connections close when it
/// stops.
package final class CancellationSignal: Sendable {
    /// Polled beside sockets; -1 when no eventfd could be made (then a wait sees the flag at its next wake-up only).
    package let descriptor: Int32
    private let raised = Atomic<Bool>(false)

    package init() {
        descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Raises the signal: waits under way and every later one end (``DescriptorWait/Outcome/cancelled``).
    package func cancel() {
        guard !raised.exchange(true, ordering: .acquiringAndReleasing), descriptor >= 0 else { return }
        _ = eventfd_write(descriptor, 1)
    }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { raised.load(ordering: .acquiring) }
}
