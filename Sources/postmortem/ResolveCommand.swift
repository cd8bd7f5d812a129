import ArgumentParser
import CommandLineOptions

/// `postmortem resolve` (alias `atos`): addresses to functions, inline chains and source lines.
struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve addresses to functions and source lines, like atos and llvm-symbolizer.",
        discussion: """
            Addresses are hex, with or without 0x, as atos reads them; without arguments they are read from \
            standard input. Without -l or -s they are file addresses (as nm prints them).
            """,
        aliases: ["atos"]
    )

    @OptionGroup var objectOptions: ObjectOptions

    @Flag(name: CommandOption.inlines.names, help: "Print every inlined frame, innermost first.")
    var inlines = false

    @Flag(name: CommandOption.fullPath.names, help: "Print full source paths.")
    var fullPath = false

    @Flag(name: CommandOption.json.names, help: "Print one JSON object per address, with the whole inline chain.")
    var json = false

    @OptionGroup var presentation: PresentationOptions

    @Argument(help: "Addresses to resolve.")
    var addresses: [String] = []

    /// The parsed values.
    var request: ResolveRequest {
        ResolveRequest(
            selection: objectOptions.selection, inlines: inlines, fullPath: fullPath, json: json, addresses: addresses,
            sourceContext: presentation.sourceContext, sourceMaps: presentation.sourceMaps, color: presentation.color)
    }

    func run() throws {
        try request.run()
    }
}
