import ObjectFiles
import PostmortemCore

/// A debuginfod client that counts what it fetched, for `/metrics`.
final class CountingRemoteDebugFiles: RemoteDebugFiles {
    private let wrapped: any RemoteDebugFiles
    private let metrics: ServerMetrics

    init(_ wrapped: any RemoteDebugFiles, metrics: ServerMetrics) {
        self.wrapped = wrapped
        self.metrics = metrics
    }

    func fetch(_ artifact: RemoteArtifact, of buildID: BuildID) -> RemoteFetch {
        let outcome = wrapped.fetch(artifact, of: buildID)
        switch outcome {
        case .fetched: metrics.debuginfodFetch("fetched")
        case .unavailable: metrics.debuginfodFetch("unavailable")
        }
        return outcome
    }
}
