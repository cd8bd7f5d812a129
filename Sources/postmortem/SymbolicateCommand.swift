import ArgumentParser
import BreakpadSymbols
import CrashLogs
import ObjectFiles
import Symbolication
import Unwinding
import PostmortemCore

/// `postmortem symbolicate LOG…`: crash logs and traces printed back with symbols, or as JSON reports.
struct SymbolicateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbolicate",
        abstract: "Symbolicate crash logs and traces, printed in their own format or as JSON.",
        discussion: "Formats read so far: \(CrashLogParser.supportedFormats.map(\.rawValue).joined(separator: ", ")).")

    @Option(name: [.customShort("d"), .customLong("debug-path")], help: "A directory searched (recursively) for binaries and debug files; may be repeated.", completion: .directory)
    var debugPaths: [String] = []

    @Option(name: .customLong("symbols"),
            help: "A Breakpad symbol store (NAME/DEBUGID/NAME.sym) answering for images whose binary is not found; may be repeated.",
            completion: .directory)
    var symbolStores: [String] = []

    @Option(name: [.customShort("o"), .customLong("object")], help: "The binary for frames that name no image.", completion: .file())
    var object: String?

    @Option(name: [.customShort("l"), .customLong("load-address")], help: "Where the -o binary was loaded (hex).")
    var loadAddress: AddressArgument?

    @Option(name: [.customLong("arch"), .customLong("arch", withSingleDash: true)], help: "The slice of a universal binary the log does not identify (-o's, and one found by name).")
    var arch: Architecture?

    @Option(name: [.customShort("e"), .customLong("executable")],
            help: "The program's binary, for a core whose path for it is wrong or gone (as eu-stack's -e).", completion: .file())
    var executable: String?

    @Option(name: .customLong("max-frames"), help: "The most frames a core's thread is unwound to (a stack overflow has many more).")
    var maxFrames: Int = 1_024

    @Flag(name: .customLong("scan"),
          help: "Where a core's or minidump's walk finds no CFI and no frame pointer, scan the stack for a return address (each such frame is marked scan).")
    var scan = false

    @Flag(name: .customLong("json"), help: "Print each report as one line of JSON.")
    var json = false

    @Flag(name: .customLong("stackwalk-json"),
          help: "Print a minidump's report as minidump-stackwalk's --json document (rust-minidump's schema), one per line.")
    var stackwalkJSON = false

    @Option(name: .customLong("output"), help: "Write to this file instead of standard output.", completion: .file())
    var output: String?

    @Flag(name: .customLong("parse-only"), help: "Parse and print the logs without looking for binaries.")
    var parseOnly = false

    @Flag(name: .customLong("no-cache"), help: "Neither read nor write the index cache (see `postmortem cache`).")
    var noCache = false

    @Flag(name: .customLong("offline"), help: ArgumentHelp(stringLiteral: DebuginfodSetup.offlineHelp))
    var offline = false

    @Flag(name: .customLong("no-demangle"), help: "Print linkage names as stored.")
    var noDemangle = false

    @OptionGroup var presentation: PresentationOptions

    @Flag(name: .customLong("full-names"),
          help: "Print Swift names in full (modules, argument and result types) instead of as the runtime's backtracer does.")
    var fullNames = false

    @Flag(name: .customLong("strict"),
          help: "Exit with status 2 when a frame that has an address stays unresolved (for CI); the reasons are on stderr.")
    var strict = false

    @Argument(help: "Logs, directories of logs, or - for standard input.", completion: .file())
    var logs: [String]

    func run() throws {
        AllocatorTuning.keepFreedMemory()
        let remote = parseOnly ? nil : DebuginfodSetup.remoteDebugFiles(offline: offline)
        let diagnostics = StandardErrorDiagnostics(gathersSymbolTableOnly: true)
        var options = SymbolicationOptions(
            debugPaths: debugPaths, object: object ?? executable, objectLoadAddress: loadAddress?.value, objectArchitecture: arch, demangle: !noDemangle,
            swiftNames: fullNames ? .full : .simplified,
            indexCache: noCache ? nil : IndexCache.standard(),
            remoteDebugFiles: remote)
        let symbolStore = symbolStores.isEmpty ? nil : SymbolStoreLookup(directories: symbolStores) { Output.error($0) }
        options.moduleSymbols = symbolStore?.lookup
        let symbolicator = Symbolicator(diagnostics: diagnostics.sink, options: options)
        let sourceReader = try PresentationOptions.sourceReader(context: presentation.sourceContext, maps: presentation.sourceMaps)
        sourceReader?.remote = remote
        let colors = try PresentationOptions.colors(presentation.color, writingJSON: json, toFile: output != nil)
        let sources = LogSource.expand(logs)
        for argument in logs where argument != "-" && FileSystem.isDirectory(argument) {
            let prefix = argument.hasSuffix("/") ? argument : argument + "/"
            if !sources.contains(where: { $0.name.hasPrefix(prefix) }) { Output.error("\(argument): no logs in this directory") }
        }
        var unresolved = false
        let sink = try OutputSink(path: output)
        var produced = 0
        let dumps = DumpInput(debugPaths: debugPaths, executable: executable, remote: remote, frameLimit: max(1, maxFrames), scansStack: scan,
                              symbolStore: symbolStore)
        for source in sources {
            // A core or minidump is recognized by its first bytes before anything reads it whole (standard input, and
            // a compressed file, are read first: a systemd-coredump core is kept zstd-compressed).
            var read: [UInt8]?
            if source.path == nil || source.isCompressed {
                do { read = try source.read() } catch {
                    Output.error(error.description)
                    continue
                }
            }
            let isDump = read.map { DumpInput.isDump(prefix: $0.prefix(DumpInput.prefixLength)) } ?? source.path.map(DumpInput.isDump) ?? false
            if isDump {
                guard let unwound = read.map({ dumps.report(of: $0, name: source.name) }) ?? source.path.flatMap(dumps.report(of:)) else { continue }
                if stackwalkJSON, unwound.minidump == nil {
                    Output.error("\(source.name): --stackwalk-json writes minidumps' reports; this is a core file")
                    continue
                }
                if sources.count > 1, !json, !stackwalkJSON { sink.write(Array("==> \(source.name) <==\n".utf8)) }
                if emit(unwound.report, from: source, symbolicator: symbolicator, sourceReader: sourceReader, colors: colors, to: sink,
                        minidump: unwound.minidump) {
                    unresolved = true
                }
                produced += 1
                continue
            }
            if read == nil {
                do { read = try source.read() } catch {
                    Output.error(error.description)
                    continue
                }
            }
            let bytes = read ?? []
            if stackwalkJSON {
                Output.error("\(source.name): --stackwalk-json writes minidumps' reports; this is no minidump")
                continue
            }
            if sources.count > 1, !json { sink.write(Array("==> \(source.name) <==\n".utf8)) }
            do {
                try LogReports.forEach(in: bytes, source: source.name) { report, continuing in
                    if emit(report, from: source, symbolicator: symbolicator, sourceReader: sourceReader, colors: colors, to: sink,
                            continuing: continuing) {
                        unresolved = true
                    }
                }
            } catch {
                Output.error(CommandLineAdvice.line(error))
                continue
            }
            produced += 1
        }
        if let summary = sourceReader?.summary() { Output.error(summary) }
        diagnostics.finish()
        IndexCacheWriting.finish(symbolicator.imagesNeedingIndexCacheFiles, cache: symbolicator.options.indexCache,
                                 debugRoots: debugPaths) { $0.writeIndexCache() }
        if produced == 0 { throw ExitCode.failure }
        if strict, unresolved {
            Output.flush()
            throw ExitCode(2)
        }
        ProcessEnd.exitWithoutTeardown(keeping: symbolicator)
    }

    /// Symbolicates one report of `source` (unless `--parse-only`) and prints it; true when a frame stays unresolved.
    private func emit(_ parsed: CrashReport, from source: LogSource, symbolicator: Symbolicator, sourceReader: SourceContextReader?,
                      colors: TerminalColors?, to sink: OutputSink, continuing: Bool = false, minidump: MinidumpUnwinding? = nil) -> Bool {
        var report = parsed
        report.warnings.forEach { Output.error("\(source.name): \($0)") }
        var unresolved = false
        if !parseOnly {
            symbolicator.symbolicate(&report, logDirectory: source.directory, continuing: continuing)
            let summary = CommandLineAdvice.unresolvedSummary(symbolicator.unresolvedImages(of: report), format: report.format)
            unresolved = !summary.isEmpty
            sourceReader?.fill(&report, logDirectory: source.directory)
            // JSON gives each frame its reason; text keeps the log as it was, so the reasons go to stderr.
            if !json, !stackwalkJSON { summary.forEach { Output.error("\(source.name): \($0)") } }
        }
        if stackwalkJSON, let minidump {
            sink.write(Array((StackwalkJSONRenderer(minidump, report: report).render() + "\n").utf8))
        } else if json {
            sink.write(Array((ReportJSONRenderer().render(report) + "\n").utf8))
        } else {
            sink.write(ReportTextRenderer(colors: colors).render(report))
        }
        return unresolved
    }
}
