import BlockingIO
import Glibc
import Synchronization

/// An HTTP/1.1 server with a thread per connection: symbolication blocks in file reads, so a request is answered on
/// the thread that read it, and the kernel shares the cores among them. Connections are kept for the client's next
/// request; every wait is bounded (``HTTPServerSettings/idleTimeout``); connections past
/// ``HTTPServerSettings/maximumConnections`` are refused with 503. SIGTERM and SIGINT stop it gracefully: the socket
/// is closed at once, connections between requests are closed, and requests in flight are finished (within
/// ``HTTPServerSettings/shutdownLimit``). Call ``StopSignals/block()`` before the process starts any thread.
package final class HTTPServer: Sendable {
    private let listening: ListeningSocket
    private let connections: Connections
    private let stopRequested = CancellationSignal()

    /// The server, listening (so that ``port`` is known before it serves).
    package init(settings: HTTPServerSettings) throws(HTTPServerFailure) {
        listening = try ListeningSocket(host: settings.host, port: settings.port)
        connections = Connections(settings: settings)
    }

    /// The port listened on.
    package var port: Int { listening.port }

    /// Serves with `handler` until SIGTERM or SIGINT (or ``stop()``), then stops gracefully; returns the signal
    /// (0 for ``stop()``).
    package func run(_ handler: some HTTPRequestHandler) throws(HTTPServerFailure) -> Int32 {
        let signals = try StopSignals.descriptor()
        defer { close(signals) }
        while true {
            var descriptors = [
                pollfd(fd: listening.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopRequested.descriptor, events: Int16(POLLIN), revents: 0)
            ]
            guard poll(&descriptors, nfds_t(descriptors.count), -1) >= 0 else {
                if errno == EINTR { continue }
                throw .system("poll", errno)
            }
            let signal =
                descriptors[1].revents != 0
                ? StopSignals.take(from: signals) : descriptors[2].revents != 0 ? 0 : nil
            if let signal {
                listening.close()
                connections.stop()
                return signal
            }
            if descriptors[0].revents != 0 { acceptPending(handler) }
        }
    }

    /// Stops the server as SIGTERM does, from any thread: ``run(_:)`` returns once the requests in flight are done.
    package func stop() { stopRequested.cancel() }

    /// Accepts every connection waiting, each served on a thread of its own.
    private func acceptPending(_ handler: some HTTPRequestHandler) {
        while true {
            // accept4, which sets both flags at once, is not in Glibc's Swift module; the server starts no programs.
            let descriptor = accept(listening.descriptor, nil, nil)
            guard descriptor >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED: continue
                // Out of descriptors: the connection stays queued, and the loop must not spin on it meanwhile.
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: usleep(10_000)
                default: break
                }
                return
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let idleTimeout = connections.settings.idleTimeout
            guard connections.admit() else {
                ConnectionService.refuse(
                    descriptor, RejectedRequest(503, "the server has too many connections"), handler,
                    server: connections.settings.serverName)
                continue
            }
            let connections = connections
            let started = BackgroundThread.start {
                let stream = ConnectionStream(descriptor: descriptor, idleTimeout: idleTimeout)
                ConnectionService(stream: stream, connections: connections).serve(handler)
                connections.leave()
            }
            if !started {
                connections.leave()
                ConnectionService.refuse(
                    descriptor, RejectedRequest(503, "the server could not start a thread"), handler,
                    server: connections.settings.serverName)
            }
        }
    }
}

/// The connections being served, and the signal that ends the waits of those between requests when the server stops.
final class Connections: Sendable {
    let settings: HTTPServerSettings
    let stopping = CancellationSignal()
    private let count = Mutex(0)

    init(settings: HTTPServerSettings) { self.settings = settings }

    /// Counts a new connection in, unless there are as many as the server serves.
    func admit() -> Bool {
        count.withLock { count in
            guard count < settings.maximumConnections else { return false }
            count += 1
            return true
        }
    }

    func leave() { count.withLock { $0 -= 1 } }

    /// Ends the waits of connections between requests and waits (up to the shutdown limit) for the others to finish.
    func stop() {
        stopping.cancel()
        let end = ContinuousClock.now + settings.shutdownLimit
        while count.withLock({ $0 }) > 0 && ContinuousClock.now < end { usleep(10_000) }
    }
}
