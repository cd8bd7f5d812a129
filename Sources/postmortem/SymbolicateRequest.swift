import ArgumentParser
import BreakpadSymbols
import CrashLogs
import ObjectFiles
import PostmortemCore
import Symbolication
import Unwinding

/// What `postmortem symbolicate` was asked, as plain values, and the work of answering it. ``SymbolicateCommand``
/// fills it in through ArgumentParser; `SymbolicateRequest(commandLine:)` reads the common command lines without it.
struct SymbolicateRequest: Equatable {
    var debugPaths: [String] = []
    var symbolStores: [String] = []
    var object: String?
    var loadAddress: AddressArgument?
    var arch: Architecture?
    var executable: String?
    var maxFrames = 1_024
    var scan = false
    var json = false
    var stackwalkJSON = false
    var output: String?
    var parseOnly = false
    var noCache = false
    var offline = false
    var noDemangle = false
    var sourceContext = 0
    var sourceMaps: [String] = []
    var color = ColorChoice.auto
    var fullNames = false
    var strict = false
    var verbose = false
    var jobs: Int?
    var logs: [String] = []

    /// Symbolicates the logs and dumps and prints them.
    /// - Throws: exit status 64 for bad option values, 1 when no log gave a report, 2 under `--strict` when a frame
    ///   stayed unresolved.
    func run() throws {
        DebugPathCheck.reportUnsearchable(debugPaths)
        // (Checked here, not in validate(): a failing validate() makes ArgumentParser read -arch as short flags.)
        if let jobs, jobs < 1 {
            Output.error("--jobs takes a count of logs, 1 or more")
            throw ExitCode.validationFailure
        }
        AllocatorTuning.keepFreedMemory()
        let remote = parseOnly ? nil : DebuginfodSetup.remoteDebugFiles(offline: offline)
        let diagnostics = StandardErrorDiagnostics(gathersSymbolTableOnly: !verbose)
        var options = SymbolicationOptions(
            debugPaths: debugPaths, object: object ?? executable, objectLoadAddress: loadAddress?.value,
            objectArchitecture: arch, demangle: !noDemangle,
            swiftNames: fullNames ? .full : .simplified,
            indexCache: noCache ? nil : IndexCache.standard(),
            remoteDebugFiles: remote)
        let symbolStore =
            symbolStores.isEmpty
            ? nil : SymbolStoreLookup(directories: symbolStores, cache: options.indexCache) { Output.error($0) }
        options.moduleSymbols = symbolStore?.lookup
        // Text prints the log's own image lines: only JSON says where each image's files are.
        options.locatesImagesWithoutFrames = json || stackwalkJSON
        let images = options.sharingImagesBetweenThreads(diagnostics: diagnostics.sink)
        let sourceReader = try PresentationOptions.sourceReader(context: sourceContext, maps: sourceMaps)?
            .fetching(from: remote)
        let colors = color.colors(writingJSON: json, toFile: output != nil)
        let sources = LogSource.expand(logs)
        for argument in logs where argument != "-" && FileSystem.isDirectory(argument) {
            let prefix = argument.hasSuffix("/") ? argument : argument + "/"
            if !sources.contains(where: { $0.name.hasPrefix(prefix) }) {
                Output.error("\(argument): no logs in this directory")
            }
        }
        let sink = try OutputSink(path: output)
        let settings = LogSymbolication.Settings(
            options: options, parseOnly: parseOnly, json: json, stackwalkJSON: stackwalkJSON, colors: colors,
            sourceReader: sourceReader,
            dumps: DumpInput(
                debugPaths: debugPaths, executable: executable, remote: remote, frameLimit: max(1, maxFrames),
                scansStack: scan,
                symbolStore: symbolStore),
            headsEachLog: sources.count > 1)
        // Logs are independent: read, symbolicated and rendered on every core, printed in their order with what each
        // said on stderr where a run on one thread says it. With source context, on one thread: its closing line names
        // the missing files in the order frames first named them.
        let workers = sourceReader == nil ? jobs ?? Processors.online : 1
        var unresolved = false
        var produced = 0
        OrderedWork.run(
            count: sources.count, workers: workers, window: 4 * workers,
            makeWorker: {
                let symbolication = LogSymbolication(settings: settings)
                return { index, turn in
                    symbolication.outcome(of: sources[index]) {
                        $0.writeSoFar(ifTurnHasCome: turn, to: sink, diagnostics: diagnostics)
                    }
                }
            },
            deliver: { outcome in
                outcome.replay(to: sink, diagnostics: diagnostics)
                if outcome.unresolved { unresolved = true }
                if outcome.produced { produced += 1 }
            })
        if let summary = sourceReader?.summary() { Output.error(summary) }
        diagnostics.finish()
        IndexCacheWriting.finish(
            images.imagesNeedingIndexCacheFiles(), cache: options.indexCache, debugRoots: debugPaths
        ) {
            $0.writeIndexCache()
        }
        SymbolStoreLookup.finish(symbolStore)
        if produced == 0 { throw ExitCode.failure }
        if strict, unresolved {
            Output.flush()
            throw ExitCode(2)
        }
        ProcessEnd.exitWithoutTeardown(keeping: images)
    }
}
