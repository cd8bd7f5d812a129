import CLinuxEvents
import Glibc

/// SIGTERM and SIGINT taken as a descriptor the accept loop polls, so that a stop is graceful: blocked in every
/// thread and read from a signalfd. ``block()`` must run before the process starts any thread (threads inherit the
/// mask of the thread that starts them; a thread without the block would take the signal's default action).
package enum StopSignals {
    static let numbers: [Int32] = [SIGTERM, SIGINT]

    /// Blocks SIGTERM and SIGINT in the calling thread and every thread it starts afterwards, with their default
    /// dispositions back (a signal the parent ignored would never be pending, so never read).
    package static func block() {
        var set = signalSet()
        for number in numbers { signal(number, SIG_DFL) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// A descriptor readable once SIGTERM or SIGINT is pending.
    static func descriptor() throws(HTTPServerFailure) -> Int32 {
        var set = signalSet()
        let descriptor = signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard descriptor >= 0 else { throw .system("signalfd", errno) }
        return descriptor
    }

    /// The signal read from `descriptor`, if one was pending.
    static func take(from descriptor: Int32) -> Int32? {
        var info = signalfd_siginfo()
        let count = withUnsafeMutableBytes(of: &info) { read(descriptor, $0.baseAddress, $0.count) }
        return count == MemoryLayout<signalfd_siginfo>.size ? Int32(info.ssi_signo) : nil
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }
}
