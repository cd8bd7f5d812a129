import Glibc

/// Threads of their own for work that blocks in system calls (name lookups, downloads), kept off the concurrency
/// pools whose few threads must not wait on the network.
package enum BackgroundThread {
    /// Runs `body` on a new detached thread, with SIGPIPE blocked there: a peer that closes while TLS writes makes
    /// the write fail with EPIPE instead of ending the process. `false` when no thread could be started.
    @discardableResult
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Work(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { pointer in
                var pipeOnly = sigset_t()
                sigemptyset(&pipeOnly)
                sigaddset(&pipeOnly, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeOnly, nil)
                Unmanaged<Work>.fromOpaque(pointer!).takeRetainedValue().body()
                return nil
            }, box)
        if started != 0 { Unmanaged<Work>.fromOpaque(box).release() }
        return started == 0
    }

    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
