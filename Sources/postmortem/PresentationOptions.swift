import ArgumentParser
import CommandLineOptions
import CrashLogs

/// How answers are shown, shared by `symbolicate` and `resolve`: source lines around each frame's line and colour.
struct PresentationOptions: ParsableArguments {
    @Option(
        name: .customLong("source-context"), help: "Print this many source lines before and after each frame's line.")
    var sourceContext: Int = 0

    @Option(
        name: .customLong("source-map"),
        help:
            "FROM=TO: read sources whose path starts with FROM below TO instead (as gdb's set substitute-path); may be repeated."
    )
    var sourceMaps: [String] = []

    @Option(name: CommandOption.color.names, help: "auto (on a terminal), always or never.")
    var color: ColorChoice = .auto

    /// The reader of source lines the options ask for, or `nil` when they ask for none; a bad value is one line on
    /// stderr and a usage error.
    static func sourceReader(context: Int, maps: [String]) throws -> SourceContextReader? {
        var mappings: [(from: String, to: String)] = []
        for text in maps {
            guard let mapping = SourceContextReader.mapping(text) else {
                Output.error("'\(text)' is not FROM=TO")
                throw ExitCode.validationFailure
            }
            mappings.append(mapping)
        }
        guard context >= 0 else {
            Output.error("--source-context takes a count of lines, 0 or more")
            throw ExitCode.validationFailure
        }
        return context > 0 || !mappings.isEmpty ? SourceContextReader(context: context, mappings: mappings) : nil
    }
}
