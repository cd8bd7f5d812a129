import BlockingIO
import Foundation
import HTTPServing
import Synchronization

/// An ``HTTPServer`` on a free loopback port, serving on a thread of its own until the test stops it.
final class RunningServer: Sendable {
    let server: HTTPServer
    private let returned = Returned()

    /// What ``HTTPServer/run(_:)`` returned, once it has.
    private final class Returned: Sendable {
        let signal = Mutex<Int32?>(nil)
    }

    init(_ handler: some HTTPRequestHandler, idleTimeout: Duration = .seconds(10), maximumConnections: Int = 1024)
        throws
    {
        var settings = HTTPServerSettings(
            host: "127.0.0.1", port: 0, idleTimeout: idleTimeout, shutdownLimit: .seconds(30), serverName: "test")
        settings.maximumConnections = maximumConnections
        settings.maximumHeadBytes = 4096
        server = try HTTPServer(settings: settings)
        let server = server
        BackgroundThread.start { [returned] in
            let signal = (try? server.run(handler)) ?? -1
            returned.signal.withLock { $0 = signal }
        }
    }

    var port: Int { server.port }

    /// Whether ``HTTPServer/run(_:)`` has returned.
    var hasReturned: Bool { returned.signal.withLock { $0 != nil } }

    /// Stops the server and waits up to `seconds` for it to return; whether it did.
    @discardableResult
    func stop(waitingUpTo seconds: Double = 30) -> Bool {
        server.stop()
        return waitUntilReturned(seconds)
    }

    func waitUntilReturned(_ seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while !hasReturned && Date() < end { usleep(10_000) }
        return hasReturned
    }

    deinit { server.stop() }
}
