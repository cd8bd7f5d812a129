import CrashLogs
import Grouping
import PostmortemCore
import Symbolication
import Unwinding

/// What `group` does to each log, on one thread: reads it (or unwinds a dump), symbolicates each crash's crashing
/// stack with this thread's symbolicator (the images are the run's, opened once for every thread) and signs it,
/// keeping what it says for the log's turn.
struct LogSigning {
    /// What every thread of a run shares.
    struct Settings: Sendable {
        var options: SymbolicationOptions
        var rules: SignatureRules
        var dumps: DumpInput
    }

    /// One crash of a log, signed.
    struct Crash: Sendable {
        var signature: CrashSignature
        var format: CrashLogFormat
        /// When it happened, as the log says.
        var time: Int64?
        var exception: String?
        /// The images whose frames stayed unresolved, and why.
        var unresolved: [UnresolvedKey]
    }

    /// An image and why its frames stayed unresolved: what the end-of-run summary counts crashes by.
    struct UnresolvedKey: Hashable, Sendable {
        var image: String
        var reason: String
    }

    /// What one log gave.
    struct Outcome: Sendable {
        /// Its error lines and diagnostics, in order (no output: the groups are printed at the end).
        var said = LogOutcome()
        var crashes: [Crash] = []
        /// Whether it was read as a log or a dump.
        var read = false
    }

    let maker: SignatureMaker
    private let diagnostics = DiagnosticBuffer()
    private let symbolicator: Symbolicator
    private let dumps: DumpInput

    init(settings: Settings) {
        maker = SignatureMaker(rules: settings.rules)
        symbolicator = Symbolicator(diagnostics: diagnostics.sink, options: settings.options)
        dumps = settings.dumps
    }

    /// Each crash of `source`, symbolicated on its crashing stack only, with its signature; not `read` when the log
    /// could not be read or parsed, said unless `quietWhenNoLog` and it is no crash log at all.
    func outcome(of source: LogSource, quietWhenNoLog: Bool = false) -> Outcome {
        var outcome = Outcome()
        // The file's time, for crashes whose log states none: read once, however many crashes the log holds.
        let modified = source.path.flatMap { FileSystem.status($0)?.modified }.map { $0 / 1_000_000_000 }
        let input: LogInput
        switch dumps.contents(of: source) {
        case .failure(let failure):
            outcome.said.error(failure.line)
            return outcome
        case .success(.dump(let unwound)):
            sign(unwound.report, of: source, modified: modified, into: &outcome)
            outcome.read = true
            return outcome
        case .success(.log(let read)):
            input = read
        }
        do {
            try LogReports.forEach(in: input, source: source.name) { parsed, continuing in
                // A report larger than a piece goes on in the next: one crash, signed by its first piece (where its
                // crashing stack starts).
                guard !continuing else { return }
                sign(parsed, of: source, modified: modified, into: &outcome)
            }
        } catch {
            if !(quietWhenNoLog && error.isUnknownFormat) { outcome.said.error(CommandLineAdvice.line(error)) }
            return outcome
        }
        outcome.read = true
        return outcome
    }

    private func sign(
        _ parsed: CrashReport, of source: LogSource, modified: Int64?, into outcome: inout Outcome
    ) {
        var report = parsed
        // Only the crashing stack makes the signature: the other threads are not looked up.
        if let stack = CrashingStack.of(report) { report.threads = [stack] }
        symbolicator.symbolicate(&report, logDirectory: source.directory)
        outcome.said.take(diagnostics)
        let unresolved = symbolicator.unresolvedImages(of: report).map {
            UnresolvedKey(image: $0.name, reason: CommandLineAdvice.line($0.reason))
        }
        outcome.crashes.append(
            Crash(
                signature: maker.signature(of: report), format: report.format,
                time: report.time ?? modified, exception: report.exception?.type,
                unresolved: unresolved))
    }
}
