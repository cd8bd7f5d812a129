import Dispatch
import Glibc
import Symbolication

/// A writer interrupted (Ctrl-C, `kill`) removes the temporary file it was writing before it ends, so no partial file
/// is left behind (a renamed file is always whole; what a writer killed outright leaves, the next writer removes).
enum CacheWriterSignals {
    /// From now until the process ends, SIGINT, SIGTERM and SIGHUP remove this process's temporary files in `cache`
    /// and end it with the signal's status.
    static func removeTemporaryFilesOnInterruption(of cache: IndexCache) {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                cache.removeOwnTemporaryFiles()
                _exit(128 + signalNumber)
            }
            source.resume()
            // Kept for the rest of the process, which nothing else holds them for.
            _ = Unmanaged.passRetained(source as AnyObject)
        }
    }
}
