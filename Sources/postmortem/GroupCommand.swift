import ArgumentParser
import BreakpadSymbols
import CrashLogs
import Grouping
import ObjectFiles
import Symbolication
import Unwinding
import PostmortemCore

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

    @Option(name: [.customShort("d"), .customLong("debug-path")], help: "A directory searched (recursively) for binaries and debug files; may be repeated.", completion: .directory)
    var debugPaths: [String] = []

    @Option(name: .customLong("symbols"),
            help: "A Breakpad symbol store (NAME/DEBUGID/NAME.sym) answering for images whose binary is not found; may be repeated.",
            completion: .directory)
    var symbolStores: [String] = []

    @Flag(name: .customLong("json"), help: "Print the groups as one JSON document.")
    var json = false

    @Option(name: .customLong("baseline"), help: "A previous `group --json` output: print only the groups not in it, and exit with status 1 when there are any.", completion: .file())
    var baseline: String?

    @Option(name: .customLong("rules"), help: "A rules file (skip, prefix, sentinel, cut REGEX; frames N), applied before the built-in rules.", completion: .file())
    var rules: String?

    @Option(name: .customLong("explain"), help: "Show which frames of this log were used or dropped, and by which rule.", completion: .file())
    var explain: String?

    @Flag(name: .customLong("print-rules"), help: "Print the built-in rules, in the rules-file format.")
    var printRules = false

    @Flag(name: .customLong("no-cache"), help: "Neither read nor write the index cache (see `postmortem cache`).")
    var noCache = false

    @Flag(name: .customLong("offline"), help: ArgumentHelp(stringLiteral: DebuginfodSetup.offlineHelp))
    var offline = false

    @Argument(help: "Logs, directories of logs, or - for standard input.", completion: .file())
    var logs: [String] = []

    func validate() throws {
        if logs.isEmpty, explain == nil, !printRules {
            throw ValidationError("Name the logs or directories to group (or --explain LOG, --print-rules).")
        }
    }

    func run() throws {
        AllocatorTuning.keepFreedMemory()
        if printRules {
            Output.line(SignatureRules.defaultRulesText)
            return
        }
        let maker = SignatureMaker(rules: try signatureRules())
        let knownSignatures = try baseline.map(Self.readBaseline)
        let remote = DebuginfodSetup.remoteDebugFiles(offline: offline)
        let diagnostics = StandardErrorDiagnostics(gathersSymbolTableOnly: true)
        var options = SymbolicationOptions(
            debugPaths: debugPaths, object: nil, objectLoadAddress: nil, objectArchitecture: nil, demangle: true,
            swiftNames: .simplified, indexCache: noCache ? nil : IndexCache.standard(),
            remoteDebugFiles: remote)
        let symbolStore = symbolStores.isEmpty ? nil : SymbolStoreLookup(directories: symbolStores) { Output.error($0) }
        options.moduleSymbols = symbolStore?.lookup
        let symbolicator = Symbolicator(diagnostics: diagnostics.sink, options: options)
        let cores = DumpInput(debugPaths: debugPaths, executable: nil, remote: remote, frameLimit: StackWalker.defaultFrameLimit,
                              symbolStore: symbolStore)
        // Per image and reason, how many crashes kept unresolved frames: said once each, at the end.
        var unresolved: [UnresolvedKey: Int] = [:]
        var unresolvedOrder: [UnresolvedKey] = []
        defer {
            diagnostics.finish()
            IndexCacheWriting.finish(symbolicator.imagesNeedingIndexCacheFiles, cache: symbolicator.options.indexCache,
                                     debugRoots: debugPaths) { $0.writeIndexCache() }
        }
        /// Each crash of `source`, symbolicated on its crashing stack only, with its signature; false when the log
        /// could not be read or parsed, said on stderr unless `quietWhenNoLog` and it is no crash log at all.
        func eachCrash(of source: LogSource, quietWhenNoLog: Bool = false, _ body: (CrashReport, CrashSignature) -> Void) -> Bool {
            func sign(_ parsed: CrashReport, continuing: Bool) {
                var report = parsed
                // Only the crashing stack makes the signature: the other threads are not looked up.
                if let stack = CrashingStack.of(report) { report.threads = [stack] }
                symbolicator.symbolicate(&report, logDirectory: source.directory, continuing: continuing)
                for image in symbolicator.unresolvedImages(of: report) {
                    let key = UnresolvedKey(image: image.name, reason: CommandLineAdvice.line(image.reason))
                    if unresolved[key] == nil { unresolvedOrder.append(key) }
                    unresolved[key, default: 0] += 1
                }
                body(report, maker.signature(of: report))
            }
            if let path = source.path, DumpInput.isDump(path) {
                do { sign(try cores.report(of: path).report, continuing: false) } catch {
                    Output.error("\(error)")
                    return false
                }
                return true
            }
            let bytes: [UInt8]
            do { bytes = try source.read() } catch {
                Output.error(error.description)
                return false
            }
            // A dump kept compressed, or given on standard input.
            if DumpInput.isDump(prefix: bytes.prefix(DumpInput.prefixLength)) {
                do { sign(try cores.report(of: bytes, name: source.name).report, continuing: false) } catch {
                    Output.error("\(error)")
                    return false
                }
                return true
            }
            do {
                try LogReports.forEach(in: bytes, source: source.name) { parsed, continuing in sign(parsed, continuing: continuing) }
            } catch {
                if !(quietWhenNoLog && error.isUnknownFormat) { Output.error(CommandLineAdvice.line(error)) }
                return false
            }
            return true
        }

        if let explain {
            let source = LogSource(name: explain, path: explain == "-" ? nil : explain)
            var first = true
            let read = eachCrash(of: source) { report, signature in
                if !first { Output.line("") }
                first = false
                Output.text(GroupRendering.explanation(signature, log: source.name, format: report.format.rawValue,
                                                       frameCount: maker.rules.frameCount))
            }
            if !read { throw ExitCode.failure }
            return
        }

        defer {
            for key in unresolvedOrder {
                let count = unresolved[key] ?? 0
                Output.error("\(key.image): frames unresolved in \(count) crash\(count == 1 ? "" : "es"): \(key.reason)")
            }
        }
        var groups = CrashGroups()
        var readAny = false
        for argument in logs {
            // A directory's other files (sources, binaries, scripts) are summed up in one line, not one line each.
            let isDirectory = argument != "-" && FileSystem.isDirectory(argument)
            var notLogs: [String] = []
            let sources = LogSource.expand([argument])
            if isDirectory, sources.isEmpty { Output.error("\(argument): no files in this directory") }
            for source in sources {
                let modified = source.path.flatMap { FileSystem.status($0)?.modified }.map { $0 / 1_000_000_000 }
                let read = eachCrash(of: source, quietWhenNoLog: isDirectory) { report, signature in
                    groups.add(signature, log: source.name, time: LogTimestamp.find(in: report) ?? modified,
                               exception: report.exception?.type)
                }
                if read { readAny = true } else if isDirectory { notLogs.append(FilePath.fileName(of: source.name)) }
            }
            if !notLogs.isEmpty {
                let named = notLogs.prefix(5).joined(separator: ", ") + (notLogs.count > 5 ? ", and \(notLogs.count - 5) more" : "")
                Output.error("\(argument): left out \(notLogs.count) file\(notLogs.count == 1 ? "" : "s") that \(notLogs.count == 1 ? "is" : "are") no crash log of a known format (\(named))")
            }
        }
        var shown = groups.groups
        if let knownSignatures { shown = shown.filter { !knownSignatures.contains($0.signature) } }
        if json {
            Output.text(GroupRendering.json(shown))
        } else if knownSignatures != nil {
            let count = shown.reduce(0) { $0 + $1.count }
            Output.text(shown.isEmpty ? "No new crash groups (\(groups.crashCount) crashes, \(groups.groups.count) groups, all in the baseline).\n"
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

    /// An image and why its frames stayed unresolved: what the end-of-run summary counts crashes by.
    private struct UnresolvedKey: Hashable {
        var image: String
        var reason: String
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
