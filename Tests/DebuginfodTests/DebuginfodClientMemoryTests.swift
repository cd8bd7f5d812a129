import Debuginfod
import Foundation
import ObjectFiles
import PostmortemCore
import Testing

/// A client that outlives a run (a server's) gives a failed debuginfod server up for a while, not for ever.
@Suite("debuginfod client memory")
final class DebuginfodClientMemoryTests {
    /// A loopback port nothing listens on: connections to it are refused at once.
    private static let refusingServer = "http://127.0.0.1:9"
    /// The client's cache, which the test's end removes.
    private let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
        "debuginfod-memory-\(UUID().uuidString)"
    ).path

    deinit { try? FileManager.default.removeItem(atPath: cache) }

    private func client(forgettingAfter memory: Duration?) throws -> DebuginfodClient {
        let settings = try #require(
            DebuginfodSettings(environment: [
                "DEBUGINFOD_URLS": Self.refusingServer, "DEBUGINFOD_CACHE_PATH": cache, "DEBUGINFOD_TIMEOUT": "2"
            ]))
        return DebuginfodClient(settings: settings, forgettingAfter: memory) { _ in }
    }

    /// Why `client` has nothing for `bytes`. `fetch` blocks its thread until its own task has the answer: it is
    /// called on a thread of its own, never on one of the few that run the tests' and the client's tasks.
    private func reason(_ client: DebuginfodClient, _ bytes: [UInt8]) async -> String {
        let fetch = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: client.fetch(.debugInfo, of: BuildID(bytes: bytes))) }.start()
        }
        if case .unavailable(let reason) = fetch { return reason }
        return "fetched"
    }

    @Test("A failed server is given up for the client's memory")
    func failuresAreRemembered() async throws {
        // A minute: far longer than the test process, busy with other suites, can delay the second fetch.
        let client = try client(forgettingAfter: .seconds(60))
        defer { client.close() }
        let first = await reason(client, [1, 2, 3, 4])
        #expect(first.contains("refused"), "\(first)")
        let soon = await reason(client, [5, 6, 7, 8])
        #expect(soon.contains("not asked, every server failed in the last 60.0 seconds"), "\(soon)")
    }

    @Test("A failed server is asked again once the client's memory has passed")
    func failuresAreForgotten() async throws {
        let client = try client(forgettingAfter: .milliseconds(50))
        defer { client.close() }
        let first = await reason(client, [1, 2, 3, 4])
        #expect(first.contains("refused"), "\(first)")
        try await Task.sleep(for: .milliseconds(200))
        // Another build-id, so that no answer kept for the first could stand in: the server is asked again.
        let later = await reason(client, [5, 6, 7, 8])
        #expect(later.contains("refused"), "\(later)")
    }

    @Test("A client of one run gives a failed server up for the run")
    func failuresLastTheRun() async throws {
        let client = try client(forgettingAfter: nil)
        defer { client.close() }
        _ = await reason(client, [1, 2, 3, 4])
        try await Task.sleep(for: .milliseconds(400))
        let later = await reason(client, [5, 6, 7, 8])
        #expect(later.contains("every server failed earlier in this run"), "\(later)")
    }
}
