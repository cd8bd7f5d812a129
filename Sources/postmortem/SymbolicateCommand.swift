import ArgumentParser
import BreakpadSymbols
import CommandLineOptions
import CrashLogs
import ObjectFiles
import PostmortemCore
import Symbolication
import Unwinding

/// `postmortem symbolicate LOG…`: crash logs and traces printed back with symbols, or as JSON reports.
struct SymbolicateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbolicate",
        abstract: "Symbolicate crash logs and traces, printed in their own format or as JSON.",
        discussion: "Formats read so far: \(CrashLogParser.supportedFormats.map(\.rawValue).joined(separator: ", ")).")

    @OptionGroup var debugPathOption: DebugPathOption

    @OptionGroup var symbolStoreOption: SymbolStoreOption

    @Option(name: CommandOption.object.names, help: "The binary for frames that name no image.", completion: .file())
    var object: String?

    @Option(name: CommandOption.loadAddress.names, help: "Where the -o binary was loaded (hex).")
    var loadAddress: AddressArgument?

    @Option(
        name: CommandOption.arch.names,
        help: "The slice of a universal binary the log does not identify (-o's, and one found by name).")
    var arch: Architecture?

    @Option(
        name: CommandOption.executable.names,
        help: "The program's binary, for a core whose path for it is wrong or gone (as eu-stack's -e).",
        completion: .file())
    var executable: String?

    @Option(
        name: CommandOption.maxFrames.names,
        help: "The most frames a core's thread is unwound to (a stack overflow has many more).")
    var maxFrames: Int = 1_024

    @Flag(
        name: CommandOption.scan.names,
        help:
            "Where a core's or minidump's walk finds no CFI and no frame pointer, scan the stack for a return address (each such frame is marked scan)."
    )
    var scan = false

    @Flag(name: CommandOption.json.names, help: "Print each report as one line of JSON.")
    var json = false

    @Flag(
        name: CommandOption.stackwalkJSON.names,
        help:
            "Print a minidump's report as minidump-stackwalk's --json document (rust-minidump's schema), one per line.")
    var stackwalkJSON = false

    @Option(
        name: CommandOption.output.names, help: "Write to this file instead of standard output.", completion: .file())
    var output: String?

    @Flag(name: CommandOption.parseOnly.names, help: "Parse and print the logs without looking for binaries.")
    var parseOnly = false

    @OptionGroup var indexCacheOption: IndexCacheOption

    @OptionGroup var offlineOption: OfflineOption

    @OptionGroup var demangleOption: DemangleOption

    @OptionGroup var presentation: PresentationOptions

    @Flag(
        name: CommandOption.fullNames.names,
        help:
            "Print Swift names in full (modules, argument and result types) instead of as the runtime's backtracer does."
    )
    var fullNames = false

    @Flag(
        name: CommandOption.strict.names,
        help:
            "Exit with status 2 when a frame that has an address stays unresolved (for CI); the reasons are on stderr.")
    var strict = false

    @OptionGroup var verboseOption: VerboseOption

    @Option(
        name: CommandOption.jobs.names,
        help: "How many logs are worked on at once (default: one per processor); the output is the same in any case.")
    var jobs: Int?

    @Argument(help: "Logs, directories of logs, or - for standard input.", completion: .file())
    var logs: [String]

    /// The request these options make.
    var request: SymbolicateRequest {
        SymbolicateRequest(
            debugPaths: debugPathOption.debugPaths, symbolStores: symbolStoreOption.symbolStores, object: object,
            loadAddress: loadAddress, arch: arch,
            executable: executable, maxFrames: maxFrames, scan: scan, json: json, stackwalkJSON: stackwalkJSON,
            output: output, parseOnly: parseOnly, noCache: indexCacheOption.noCache, offline: offlineOption.offline,
            noDemangle: demangleOption.noDemangle,
            sourceContext: presentation.sourceContext, sourceMaps: presentation.sourceMaps, color: presentation.color,
            fullNames: fullNames, strict: strict, verbose: verboseOption.verbose, jobs: jobs, logs: logs)
    }

    func run() throws {
        try request.run()
    }
}
