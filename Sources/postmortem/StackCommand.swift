import ArgumentParser
import CommandLineOptions
import CrashLogs
import ObjectFiles
import PostmortemCore
import Symbolication
import Unwinding

/// `postmortem stack PID…`: every thread of a running process, stopped for as short a time as walking takes and
/// unwound, as `eu-stack -p` prints them.
struct StackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stack",
        abstract:
            "Print every thread's stack of running processes, symbolicated (the threads stop while they are walked).")

    @OptionGroup var debugPathOption: DebugPathOption

    @Option(name: CommandOption.maxFrames.names, help: "The most frames a thread is unwound to.")
    var maxFrames: Int = StackWalker.defaultFrameLimit

    @Flag(name: CommandOption.json.names, help: "Print each process's report as one line of JSON.")
    var json = false

    @OptionGroup var indexCacheOption: IndexCacheOption

    @OptionGroup var offlineOption: OfflineOption

    @OptionGroup var verboseOption: VerboseOption

    @OptionGroup var presentation: PresentationOptions

    @Argument(help: "The ids of the processes.")
    var processIDs: [Int32]

    func run() throws {
        DebugPathCheck.reportUnsearchable(debugPathOption.debugPaths)
        let remote = DebuginfodSetup.remoteDebugFiles(offline: offlineOption.offline)
        let diagnostics = StandardErrorDiagnostics(gathersSymbolTableOnly: !verboseOption.verbose)
        let symbolicator = Symbolicator(
            diagnostics: diagnostics.sink,
            options: SymbolicationOptions(
                debugPaths: debugPathOption.debugPaths, demangle: true, swiftNames: .simplified,
                indexCache: indexCacheOption.noCache ? nil : IndexCache.standard(),
                remoteDebugFiles: remote))
        let sourceReader = try PresentationOptions.sourceReader(
            context: presentation.sourceContext, maps: presentation.sourceMaps)
        let colors = presentation.color.colors(writingJSON: json, toFile: false)
        let finder = BinaryFinder(debugPaths: debugPathOption.debugPaths, remote: remote)
        var failed = false
        for processID in processIDs {
            let stacks: ProcessStacks
            do { stacks = try ProcessStacks(processID: processID, finder: finder, frameLimit: max(1, maxFrames)) } catch
            {
                Output.error(error.description)
                failed = true
                continue
            }
            var report = stacks.report
            symbolicator.symbolicate(&report)
            sourceReader?.fill(&report, logDirectory: nil)
            if json {
                // How long the threads were stopped, as the text's header says it.
                let microseconds = stacks.stoppedNanoseconds / 1_000
                let fraction = String(microseconds % 1_000)
                let stopped = "\(microseconds / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
                Output.text(ReportJSONRenderer().render(report, extra: [("stoppedMilliseconds", stopped)]) + "\n")
            } else {
                CommandLineAdvice.unresolvedSummary(symbolicator.unresolvedImages(of: report)).forEach {
                    Output.error("process \(processID): \($0)")
                }
                Output.bytes(ReportTextRenderer(colors: colors).render(report)[...])
            }
        }
        diagnostics.finish()
        IndexCacheWriting.finish(
            symbolicator.imagesNeedingIndexCacheFiles, cache: symbolicator.options.indexCache,
            debugRoots: debugPathOption.debugPaths
        ) { $0.writeIndexCache() }
        if failed { throw ExitCode.failure }
    }
}
