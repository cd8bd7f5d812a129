import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension FileHandle {
    /// Writes all of `data` to a pipe without letting a reader that has gone away raise SIGPIPE, which would end
    /// the whole test process instead of failing one test: SIGPIPE is blocked on this thread for the write, and a
    /// signal the write raised is taken off the thread before unblocking.
    /// - Returns: false when the reader has closed its end (EPIPE) or the write failed otherwise.
    public func writeIgnoringBrokenPipe(_ data: Data) -> Bool {
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var written = 0
        var failed = false
        data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let count = Glibc.write(fileDescriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    break
                }
                written += count
            }
        }
        if failed && errno == EPIPE {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var timeout = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &timeout)
            }
        }
        return !failed
    }
}
