import Synchronization

/// Where diagnostics go: the caller decides (a command line prints them on stderr, a server logs them per request,
/// a test keeps them). Called from whichever thread made the diagnostic.
public struct DiagnosticSink: Sendable {
    private let deliver: @Sendable (Diagnostic) -> Void

    /// A sink that hands each diagnostic to `deliver`, on the thread that made it.
    public init(_ deliver: @escaping @Sendable (Diagnostic) -> Void) {
        self.deliver = deliver
    }

    /// Delivers `diagnostic`.
    public func report(_ diagnostic: Diagnostic) {
        deliver(diagnostic)
    }

    /// Delivers a diagnostic about `subject` saying `message`, with `remedy` when something can be done.
    public func report(subject: String?, _ message: String, remedy: Remedy? = nil) {
        deliver(Diagnostic(subject: subject, message: message, remedy: remedy))
    }

    /// Drops what it is given: for callers that have said they do not want diagnostics.
    public static let ignoring = DiagnosticSink { _ in }
}

/// A sink that keeps what it is given, in order, for a caller that reads them afterwards (a test, a library user).
package final class DiagnosticLog: Sendable {
    private let kept = Mutex<[Diagnostic]>([])

    /// An empty log.
    package init() {}

    /// A sink that appends to this log, from any thread.
    package var sink: DiagnosticSink {
        DiagnosticSink { [self] diagnostic in kept.withLock { $0.append(diagnostic) } }
    }

    /// What was reported so far.
    package var diagnostics: [Diagnostic] { kept.withLock { $0 } }
}
