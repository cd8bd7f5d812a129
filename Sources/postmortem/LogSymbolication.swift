import CrashLogs
import PostmortemCore
import Symbolication
import Unwinding

/// What `symbolicate` does to each log, on one thread: reads it (or unwinds a dump), symbolicates its reports with this
/// thread's symbolicator (the images are the run's, opened once for every thread) and renders them, keeping what it
/// prints until the log's turn comes.
struct LogSymbolication {
    /// What every thread of a run shares.
    struct Settings: Sendable {
        var options: SymbolicationOptions
        var parseOnly: Bool
        var json: Bool
        var stackwalkJSON: Bool
        var colors: TerminalColors?
        var sourceReader: SourceContextReader?
        var dumps: DumpInput
        /// Whether each log's output is headed by its name (more than one log, as text).
        var headsEachLog: Bool
    }

    let settings: Settings
    private let diagnostics = DiagnosticBuffer()
    private let symbolicator: Symbolicator

    init(settings: Settings) {
        self.settings = settings
        symbolicator = Symbolicator(diagnostics: diagnostics.sink, options: settings.options)
    }

    /// Everything `source` prints, and whether it stays partly unresolved. After each report, `written` may write
    /// and empty the outcome's pieces (when the log's turn has come), so that a huge log is not held whole.
    func outcome(of source: LogSource, written: (inout LogOutcome) -> Void = { _ in }) -> LogOutcome {
        var outcome = LogOutcome()
        let input: LogInput
        switch settings.dumps.contents(of: source) {
        case .failure(let failure):
            outcome.error(failure.line)
            return outcome
        case .success(.dump(let unwound)):
            if settings.stackwalkJSON, unwound.minidump == nil {
                outcome.error("\(source.name): --stackwalk-json writes minidumps' reports; this is a core file")
                return outcome
            }
            if settings.headsEachLog, !settings.json, !settings.stackwalkJSON {
                outcome.write(Array("==> \(source.name) <==\n".utf8))
            }
            var report = unwound.report
            emit(&report, from: source, into: &outcome, minidump: unwound.minidump)
            outcome.produced = true
            return outcome
        case .success(.log(let read)):
            input = read
        }
        if settings.stackwalkJSON {
            outcome.error("\(source.name): --stackwalk-json writes minidumps' reports; this is no minidump")
            return outcome
        }
        if settings.headsEachLog, !settings.json { outcome.write(Array("==> \(source.name) <==\n".utf8)) }
        do {
            // A large log's pieces are symbolicated and rendered on other threads, each with a symbolication of its
            // own (the images are the run's); what each piece printed comes back here in the log's order. Other logs
            // are this thread's, with its symbolicator and what it learned from the logs before.
            let settings = settings
            try LogReports.forEachPiece(
                in: input, source: source.name,
                work: { piece, endedAfterTrampoline in self.outcome(of: piece, from: source, endedAfterTrampoline) },
                makeWorker: {
                    let worker = LogSymbolication(settings: settings)
                    return { piece, endedAfterTrampoline in
                        worker.outcome(of: piece, from: source, endedAfterTrampoline)
                    }
                },
                deliver: { made in
                    outcome.pieces += made.pieces
                    if made.unresolved { outcome.unresolved = true }
                    written(&outcome)
                })
        } catch {
            outcome.error(CommandLineAdvice.line(error))
            return outcome
        }
        outcome.produced = true
        return outcome
    }

    /// What the reports of one piece of `source` print, and whether its last frame was a signal trampoline's (for the
    /// next piece, when its first report continues the last of this one). `endedAfterTrampoline` says it of the piece
    /// before, which another thread may have symbolicated.
    private func outcome(
        of piece: consuming ParsedPiece, from source: LogSource, _ endedAfterTrampoline: () -> Bool?
    ) -> (LogOutcome, Bool) {
        var outcome = LogOutcome()
        // Each report symbolicated where it lies: the piece is this function's, so its frames are not copied first.
        for index in piece.reports.indices {
            let continuing = piece.continues && index == 0
            if continuing, let ended = endedAfterTrampoline() { symbolicator.endedAfterTrampoline = ended }
            emit(&piece.reports[index], from: source, into: &outcome, continuing: continuing)
        }
        return (outcome, symbolicator.endedAfterTrampoline)
    }

    /// Symbolicates one report of `source` (unless `--parse-only`) and renders it into `outcome`.
    private func emit(
        _ report: inout CrashReport, from source: LogSource, into outcome: inout LogOutcome, continuing: Bool = false,
        minidump: MinidumpUnwinding? = nil
    ) {
        report.warnings.forEach { outcome.error("\(source.name): \($0)") }
        if !settings.parseOnly {
            symbolicator.symbolicate(&report, logDirectory: source.directory, continuing: continuing)
            outcome.take(diagnostics)
            let summary = CommandLineAdvice.unresolvedSummary(
                symbolicator.unresolvedImages(of: report), format: report.format, describe: symbolicator.describe)
            if !summary.isEmpty { outcome.unresolved = true }
            settings.sourceReader?.fill(&report, logDirectory: source.directory)
            // JSON gives each frame its reason; text keeps the log as it was, so the reasons go to stderr.
            if !settings.json, !settings.stackwalkJSON { summary.forEach { outcome.error("\(source.name): \($0)") } }
        }
        if settings.stackwalkJSON, let minidump {
            outcome.write(Array((StackwalkJSONRenderer(minidump, report: report).render() + "\n").utf8))
        } else if settings.json {
            outcome.write(ReportJSONRenderer().renderBytes(report) + [UInt8(ascii: "\n")])
        } else {
            outcome.write(ReportTextRenderer(colors: settings.colors).render(report))
        }
    }
}
