import BlockingIO
import Foundation
import HTTPDownload
import TestSupport

/// What a finished download gave.
struct Download: Sendable {
    var status: Int
    var fields: [(name: String, value: String)]
    var body: [UInt8]
    /// Each address redirected to, in order.
    var redirects: [String]
    /// The address that answered.
    var address: String
}

/// Limits that no test should meet unless it means to.
let generousLimits = HTTPLimits(connectTimeout: .seconds(30), idleTimeout: .seconds(30))

/// `GET url` and its whole body, run on a thread of its own: the download blocks, and the test runner's few
/// threads must not wait on the network.
func download(
    _ url: String, with downloader: HTTPDownloader = HTTPDownloader(), fields: [(name: String, value: String)] = [],
    limits: HTTPLimits = generousLimits, cancellation: CancellationSignal = CancellationSignal(),
    afterFirstBytes: (@Sendable () -> Void)? = nil
) async -> Result<Download, HTTPFailure> {
    await timedDownload(
        url, with: downloader, fields: fields, limits: limits, cancellation: cancellation,
        afterFirstBytes: afterFirstBytes
    ).result
}

/// ``download(_:with:fields:limits:cancellation:afterFirstBytes:)`` and how long it took, timed on its own thread:
/// the test's task may wait long for a thread of the runner's busy pool after the download has ended.
func timedDownload(
    _ url: String, with downloader: HTTPDownloader = HTTPDownloader(), fields: [(name: String, value: String)] = [],
    limits: HTTPLimits = generousLimits, cancellation: CancellationSignal = CancellationSignal(),
    afterFirstBytes: (@Sendable () -> Void)? = nil
) async -> (result: Result<Download, HTTPFailure>, took: Duration) {
    let fields = fields.map { Field(name: $0.name, value: $0.value) }
    return await withCheckedContinuation { continuation in
        BackgroundThread.start {
            let started = ContinuousClock.now
            let result = fetchNow(
                url, with: downloader, fields: fields, limits: limits, cancellation: cancellation,
                afterFirstBytes: afterFirstBytes)
            continuation.resume(returning: (result, started.duration(to: .now)))
        }
    }
}

/// `urls` downloaded one after the other on one thread of its own, with one downloader: the pauses between them are
/// the requests' own, not the time the test's task waits for a thread of the runner's busy pool (which can outlast
/// the time a downloader keeps a connection).
func downloadsInSequence(_ urls: [String], with downloader: HTTPDownloader) async -> [Result<Download, HTTPFailure>] {
    await withCheckedContinuation { continuation in
        BackgroundThread.start {
            continuation.resume(
                returning: urls.map { fetchNow($0, with: downloader, cancellation: CancellationSignal()) })
        }
    }
}

/// `GET url` and its whole body, on the calling thread.
private func fetchNow(
    _ url: String, with downloader: HTTPDownloader, fields: [Field] = [], limits: HTTPLimits = generousLimits,
    cancellation: CancellationSignal, afterFirstBytes: (@Sendable () -> Void)? = nil
) -> Result<Download, HTTPFailure> {
    Result { () throws(HTTPFailure) -> Download in
        let redirects = Redirects()
        let response = try downloader.get(
            url, fields: fields.map { ($0.name, $0.value) }, limits: limits, cancellation: cancellation
        ) { redirects.list.append($0.description) }
        var body: [UInt8] = []
        while let bytes = try response.nextBytes() {
            if body.isEmpty { afterFirstBytes?() }
            body += bytes
        }
        return Download(
            status: response.head.status, fields: response.head.fields, body: body,
            redirects: redirects.list, address: response.address.description)
    }
}

private struct Field: Sendable {
    var name: String
    var value: String
}

private final class Redirects {
    var list: [String] = []
}

/// A scratch folder with `blob`, 300,000 bytes of a seeded generator's, for servers to send.
func servedFolder(_ name: String) throws -> (folder: String, blob: [UInt8]) {
    let folder = Fixtures.scratchDirectory(name)
    var generator = SeededGenerator(seed: 40)
    let blob = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    try Data(blob).write(to: URL(fileURLWithPath: folder + "/blob"))
    return (folder, blob)
}
