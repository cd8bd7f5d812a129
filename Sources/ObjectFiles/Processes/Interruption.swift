import Dispatch
import Glibc

/// What the process does when it is interrupted (SIGINT, SIGTERM, SIGHUP): `cleanUp`, then it ends with the signal's
/// status, as it would have without. For a writer that must not leave a partial file behind.
package enum Interruption {
    /// From now until the process ends, an interruption runs `cleanUp` (on another thread) and ends the process.
    package static func onInterruption(_ cleanUp: @escaping @Sendable () -> Void) {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                cleanUp()
                _exit(128 + signalNumber)
            }
            source.resume()
            // Kept for the rest of the process, which nothing else holds them for.
            _ = Unmanaged.passRetained(source as AnyObject)
        }
    }
}
