import ObjectFiles
import PostmortemCore
import Prometheus

/// A debuginfod client that counts what it fetched, for `/metrics`.
final class CountingRemoteDebugFiles: RemoteDebugFiles {
    struct Counters: Sendable {
        let fetched: Counter
        let unavailable: Counter
    }

    private let wrapped: any RemoteDebugFiles
    private let counters: Counters

    init(_ wrapped: any RemoteDebugFiles, counters: Counters) {
        self.wrapped = wrapped
        self.counters = counters
    }

    func fetch(_ artifact: RemoteArtifact, of buildID: BuildID) -> RemoteFetch {
        let outcome = wrapped.fetch(artifact, of: buildID)
        switch outcome {
        case .fetched: counters.fetched.increment()
        case .unavailable: counters.unavailable.increment()
        }
        return outcome
    }
}
