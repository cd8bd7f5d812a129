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

    /// Why `client` has nothing for each build-id of `ids`, fetched one after the other with `pause` between them.
    /// `fetch` blocks: the fetches run on a thread of their own, never on one of the few that run the tests, and one
    /// after the other on it, so that the pause between them is the one asked for, not the time the test's task waits
    /// for a thread of the runner's busy pool.
    private func reasons(_ client: DebuginfodClient, _ ids: [[UInt8]], pause: Duration = .zero) async -> [String] {
        await withCheckedContinuation { continuation in
            Thread {
                var reasons: [String] = []
                for (index, bytes) in ids.enumerated() {
                    if index > 0 { Thread.sleep(forTimeInterval: Double(pause / .milliseconds(1)) / 1000) }
                    if case .unavailable(let reason) = client.fetch(.debugInfo, of: BuildID(bytes: bytes)) {
                        reasons.append(reason)
                    } else {
                        reasons.append("fetched")
                    }
                }
                continuation.resume(returning: reasons)
            }.start()
        }
    }

    @Test("A failed server is given up for the client's memory")
    func failuresAreRemembered() async throws {
        // A minute: far longer than a busy machine can take between the two fetches of one thread.
        let client = try client(forgettingAfter: .seconds(60))
        defer { client.close() }
        let answers = await reasons(client, [[1, 2, 3, 4], [5, 6, 7, 8]])
        #expect(answers[0].contains("refused"), "\(answers[0])")
        #expect(answers[1].contains("not asked, every server failed in the last 60.0 seconds"), "\(answers[1])")
    }

    @Test("A failed server is asked again once the client's memory has passed")
    func failuresAreForgotten() async throws {
        let client = try client(forgettingAfter: .milliseconds(50))
        defer { client.close() }
        // Another build-id the second time, so that no answer kept for the first could stand in: the server is asked
        // again.
        let answers = await reasons(client, [[1, 2, 3, 4], [5, 6, 7, 8]], pause: .milliseconds(200))
        #expect(answers[0].contains("refused"), "\(answers[0])")
        #expect(answers[1].contains("refused"), "\(answers[1])")
    }

    @Test("A client of one run gives a failed server up for the run")
    func failuresLastTheRun() async throws {
        let client = try client(forgettingAfter: nil)
        defer { client.close() }
        let answers = await reasons(client, [[1, 2, 3, 4], [5, 6, 7, 8]], pause: .milliseconds(400))
        #expect(answers[1].contains("every server failed earlier in this run"), "\(answers[1])")
    }
}
