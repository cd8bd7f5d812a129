import PostmortemCore
import Synchronization

/// The command line's diagnostic sink: each diagnostic one line on stderr (`postmortem: …`), each distinct line once
/// per run (the helper symbolizer of a parallel batch, and every address of a damaged unit, find the same thing).
/// Reported from any thread.
final class StandardErrorDiagnostics: Sendable {
    private let said = Mutex<Set<String>>([])
    private let quiet: Bool

    /// - Parameter quiet: says nothing (the background index writer's `--quiet`).
    init(quiet: Bool = false) {
        self.quiet = quiet
    }

    var sink: DiagnosticSink {
        DiagnosticSink { [self] diagnostic in say(diagnostic) }
    }

    func say(_ diagnostic: Diagnostic) {
        guard !quiet else { return }
        let line = diagnostic.description
        said.withLock { said in
            // Printed while the lock is held, so two threads' lines never interleave.
            if said.insert(line).inserted { Output.error(line) }
        }
    }
}
