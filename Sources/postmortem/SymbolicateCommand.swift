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

    @Flag(name: .customLong("verbose"),
          help: "Name each image that has no debug information on a line of its own (they are named together in one line otherwise).")
    var verbose = false

    @Option(name: [.customShort("j"), .customLong("jobs")],
            help: "How many logs are worked on at once (default: one per processor); the output is the same in any case.")
    var jobs: Int?

    @Argument(help: "Logs, directories of logs, or - for standard input.", completion: .file())
    var logs: [String]

    /// The request these options make.
    var request: SymbolicateRequest {
        SymbolicateRequest(debugPaths: debugPaths, symbolStores: symbolStores, object: object, loadAddress: loadAddress, arch: arch,
                           executable: executable, maxFrames: maxFrames, scan: scan, json: json, stackwalkJSON: stackwalkJSON,
                           output: output, parseOnly: parseOnly, noCache: noCache, offline: offline, noDemangle: noDemangle,
                           sourceContext: presentation.sourceContext, sourceMaps: presentation.sourceMaps, color: presentation.color,
                           fullNames: fullNames, strict: strict, verbose: verbose, jobs: jobs, logs: logs)
    }

    func run() throws {
        try request.run()
    }
}
