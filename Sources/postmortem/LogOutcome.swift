import PostmortemCore
import Synchronization

/// What one log gave, kept until its turn to be printed: what it wrote to standard output and standard error, in the
/// order it wrote them, whether a frame stayed unresolved, and whether it was read at all.
struct LogOutcome: Sendable {
    /// One thing the log's run wrote.
    enum Piece: Sendable {
        /// Bytes for standard output (or `--output`).
        case output([UInt8])
        /// A line for standard error, as `Output.error` writes it.
        case error(String)
        /// What the symbolicator found, said once per run by the command's diagnostics.
        case diagnostic(Diagnostic)
    }

    var pieces: [Piece] = []
    /// Whether a frame that has an address stayed unresolved (`--strict`).
    var unresolved = false
    /// Whether the log was read and printed (a run that reads none fails).
    var produced = false

    mutating func write(_ bytes: [UInt8]) { pieces.append(.output(bytes)) }
    mutating func error(_ line: String) { pieces.append(.error(line)) }
    mutating func take(_ buffer: DiagnosticBuffer) { pieces += buffer.take().map(Piece.diagnostic) }

    /// Writes the pieces written so far and forgets them, when the log's turn has come (a huge log's reports are then
    /// written one by one, as they are made).
    mutating func writeSoFar(
        ifTurnHasCome turn: OrderedWork.Turn, to sink: OutputSink, diagnostics: StandardErrorDiagnostics
    ) {
        guard turn.hasCome, !pieces.isEmpty else { return }
        replay(to: sink, diagnostics: diagnostics)
        pieces = []
    }

    /// Writes the pieces in their order: output to `sink`, error lines to standard error, diagnostics to `diagnostics`;
    /// pieces of output in a row in one write, and error lines in a row in another (a folder of logs would otherwise
    /// cost a system call per header, report and line of stderr).
    func replay(to sink: OutputSink, diagnostics: StandardErrorDiagnostics) {
        var output: [[UInt8]] = []
        var errors: [String] = []
        func writeOutput() {
            sink.write(output)
            output = []
        }
        func writeErrors() {
            Output.errors(errors)
            errors = []
        }
        for piece in pieces {
            switch piece {
            case .output(let bytes):
                writeErrors()
                output.append(bytes)
            case .error(let line):
                writeOutput()
                errors.append(line)
            case .diagnostic(let diagnostic):
                writeOutput()
                writeErrors()
                diagnostics.say(diagnostic)
            }
        }
        writeOutput()
        writeErrors()
    }
}

/// Diagnostics kept in the order they were reported until the log that found them is printed, so that a run on
/// several threads says them where a run on one would.
final class DiagnosticBuffer: Sendable {
    private let kept = Mutex<[Diagnostic]>([])

    var sink: DiagnosticSink {
        DiagnosticSink { [self] diagnostic in kept.withLock { $0.append(diagnostic) } }
    }

    /// The diagnostics kept so far, leaving none.
    func take() -> [Diagnostic] {
        kept.withLock { kept in
            defer { kept = [] }
            return kept
        }
    }
}
