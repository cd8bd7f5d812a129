import ArgumentParser
import BreakpadSymbols
import CommandLineOptions
import CrashLogs
import Grouping
import ObjectFiles
import PostmortemCore
import Symbolication
import Unwinding

/// `postmortem group LOG…`: crash logs symbolicated and grouped by crash signature.
struct GroupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "Group crash logs by crash signature: how many different crashes, which are new.",
        discussion: """
            A signature is made of the crashing stack's first meaningful frames, after the frames that say nothing about \
            the bug are dropped (signal handlers, the C library's abort path, sanitizer and Swift runtime reporting, \
            thunks, the unwinder); `--print-rules` shows the rules, `--explain LOG` how they applied to one log.
            """)

    @OptionGroup var debugPathOption: DebugPathOption

    @OptionGroup var symbolStoreOption: SymbolStoreOption

    @Flag(name: CommandOption.json.names, help: "Print the groups as one JSON document.")
    var json = false

    @Option(
        name: .customLong("baseline"),
        help:
            "A previous `group --json` output: print only the groups not in it, and exit with status 1 when there are any.",
        completion: .file())
    var baseline: String?

    @Option(
        name: .customLong("rules"),
        help: "A rules file (skip, prefix, sentinel, cut REGEX; frames N), applied before the built-in rules.",
        completion: .file())
    var rules: String?

    @Option(
        name: .customLong("explain"), help: "Show which frames of this log were used or dropped, and by which rule.",
        completion: .file())
    var explain: String?

    @Flag(name: .customLong("print-rules"), help: "Print the built-in rules, in the rules-file format.")
    var printRules = false

    @OptionGroup var indexCacheOption: IndexCacheOption

    @OptionGroup var offlineOption: OfflineOption

    @OptionGroup var verboseOption: VerboseOption

    @Option(
        name: CommandOption.jobs.names,
        help: "How many logs are worked on at once (default: one per processor); the groups are the same in any case.")
    var jobs: Int?

    @Argument(help: "Logs, directories of logs, or - for standard input.", completion: .file())
    var logs: [String] = []

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a count of logs, 1 or more") }
        if logs.isEmpty, explain == nil, !printRules {
            throw ValidationError("Name the logs or directories to group (or --explain LOG, --print-rules).")
        }
    }

    func run() throws {
        DebugPathCheck.reportUnsearchable(debugPathOption.debugPaths)
        AllocatorTuning.keepFreedMemory()
        if printRules {
            Output.line(SignatureRules.defaultRulesText)
            return
        }
        let signatureRules = try signatureRules()
        let knownSignatures = try baseline.map(Self.readBaseline)
        let remote = DebuginfodSetup.remoteDebugFiles(offline: offlineOption.offline)
        let diagnostics = StandardErrorDiagnostics(gathersSymbolTableOnly: !verboseOption.verbose)
        var options = SymbolicationOptions(
            debugPaths: debugPathOption.debugPaths, object: nil, objectLoadAddress: nil, objectArchitecture: nil,
            demangle: true,
            swiftNames: .simplified, indexCache: indexCacheOption.noCache ? nil : IndexCache.standard(),
            remoteDebugFiles: remote)
        let symbolStore =
            symbolStoreOption.symbolStores.isEmpty
            ? nil
            : SymbolStoreLookup(directories: symbolStoreOption.symbolStores, cache: options.indexCache) {
                Output.error($0)
            }
        options.moduleSymbols = symbolStore?.lookup
        // A signature is made of frames: where the images no frame points into are is never printed.
        options.locatesImagesWithoutFrames = false
        let images = options.sharingImagesBetweenThreads(diagnostics: diagnostics.sink)
        let settings = LogSigning.Settings(
            options: options, rules: signatureRules,
            dumps: DumpInput(
                debugPaths: debugPathOption.debugPaths, executable: nil, remote: remote,
                frameLimit: StackWalker.defaultFrameLimit,
                symbolStore: symbolStore))
        // Per image and reason, how many crashes kept unresolved frames: said once each, at the end.
        var unresolved: [LogSigning.UnresolvedKey: Int] = [:]
        var unresolvedOrder: [LogSigning.UnresolvedKey] = []
        defer {
            diagnostics.finish()
            IndexCacheWriting.finish(
                images.imagesNeedingIndexCacheFiles(), cache: options.indexCache, debugRoots: debugPathOption.debugPaths
            ) {
                $0.writeIndexCache()
            }
            SymbolStoreLookup.finish(symbolStore)
        }

        if let explain {
            let source = LogSource(name: explain, path: explain == "-" ? nil : explain)
            let signing = LogSigning(settings: settings)
            let outcome = signing.outcome(of: source)
            outcome.said.replay(to: try OutputSink(path: nil), diagnostics: diagnostics)
            for (number, crash) in outcome.crashes.enumerated() {
                if number > 0 { Output.line("") }
                Output.text(
                    GroupRendering.explanation(
                        crash.signature, log: source.name, format: crash.format.rawValue,
                        frameCount: signing.maker.rules.frameCount))
            }
            if !outcome.read { throw ExitCode.failure }
            return
        }

        defer {
            for key in unresolvedOrder {
                let count = unresolved[key] ?? 0
                Output.error(
                    "\(key.image): frames unresolved in \(count) crash\(count == 1 ? "" : "es"): \(key.reason)")
            }
        }
        // Every argument's logs, each with the argument it came from: a directory's files that are no logs are summed
        // up in one line once its last log is done.
        let arguments = logs.map { argument in
            (
                name: argument, isDirectory: argument != "-" && FileSystem.isDirectory(argument),
                sources: LogSource.expand([argument])
            )
        }
        let sources = arguments.indices.flatMap { index in
            arguments[index].sources.map { (argument: index, source: $0) }
        }
        let standardOutput = try OutputSink(path: nil)
        var groups = CrashGroups()
        var readAny = false
        var notLogs: [String] = []
        var delivered = 0
        var finishedArguments = 0
        /// Says what each argument before `next` (the next log's, or all when `nil`) left out, once its last log is done.
        func finishArguments(before next: Int?) {
            while finishedArguments < (next ?? arguments.count) {
                let (name, isDirectory, expanded) = arguments[finishedArguments]
                if isDirectory, expanded.isEmpty { Output.error("\(name): no files in this directory") }
                if !notLogs.isEmpty {
                    let named =
                        notLogs.prefix(5).joined(separator: ", ")
                        + (notLogs.count > 5 ? ", and \(notLogs.count - 5) more" : "")
                    Output.error(
                        "\(name): left out \(notLogs.count) file\(notLogs.count == 1 ? "" : "s") that \(notLogs.count == 1 ? "is" : "are") no crash log of a known format (\(named))"
                    )
                }
                notLogs = []
                finishedArguments += 1
            }
        }
        let workers = jobs ?? Processors.online
        OrderedWork.run(
            count: sources.count, workers: workers, window: 4 * workers,
            makeWorker: {
                let signing = LogSigning(settings: settings)
                return { index, _ in
                    signing.outcome(
                        of: sources[index].source, quietWhenNoLog: arguments[sources[index].argument].isDirectory)
                }
            },
            deliver: { outcome in
                let (argument, source) = sources[delivered]
                delivered += 1
                finishArguments(before: argument)
                outcome.said.replay(to: standardOutput, diagnostics: diagnostics)
                for crash in outcome.crashes {
                    for key in crash.unresolved {
                        if unresolved[key] == nil { unresolvedOrder.append(key) }
                        unresolved[key, default: 0] += 1
                    }
                    groups.add(crash.signature, log: source.name, time: crash.time, exception: crash.exception)
                }
                if outcome.read {
                    readAny = true
                } else if arguments[argument].isDirectory {
                    notLogs.append(FilePath.fileName(of: source.name))
                }
            })
        finishArguments(before: nil)
        var shown = groups.groups
        if let knownSignatures { shown = shown.filter { !knownSignatures.contains($0.signature) } }
        if json {
            Output.text(GroupRendering.json(shown))
        } else if knownSignatures != nil {
            let count = shown.reduce(0) { $0 + $1.count }
            Output.text(
                shown.isEmpty
                    ? "No new crash groups (\(groups.crashCount) crashes, \(groups.groups.count) groups, all in the baseline).\n"
                    : "New: " + GroupRendering.text(shown, crashCount: count))
        } else {
            Output.text(GroupRendering.text(shown, crashCount: groups.crashCount))
        }
        Output.flush()
        if knownSignatures != nil {
            if !shown.isEmpty { throw ExitCode.failure }
            return
        }
        if !readAny { throw ExitCode.failure }
    }

    /// The built-in rules, with the `--rules` file's before them.
    private func signatureRules() throws -> SignatureRules {
        let defaults = SignatureRules.defaults()
        guard let rules else { return defaults }
        do {
            let text = String(decoding: try FileSystem.read(rules, maximumSize: 1 << 20), as: UTF8.self)
            let own = try SignatureRules.parse(text, name: rules)
            return own.before(defaults)
        } catch let error as RulesError {
            Output.error(error.description)
            throw ExitCode.validationFailure
        } catch let error as FileSystem.Failure {
            Output.error(error.description)
            throw ExitCode.validationFailure
        }
    }

    private static func readBaseline(_ path: String) throws -> Set<String> {
        do {
            let bytes = try FileSystem.read(path, maximumSize: 256 << 20)
            return try GroupBaseline.signatures(in: bytes, name: path)
        } catch let error as GroupBaseline.Failure {
            Output.error(error.description + "; a baseline is the output of `postmortem group --json`")
            throw ExitCode.validationFailure
        } catch let error as FileSystem.Failure {
            Output.error(error.description)
            throw ExitCode.validationFailure
        }
    }
}
