import ArgumentParser
import ObjectFiles
import Symbolication

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

    @Flag(name: [.customShort("i"), .customLong("inlines")], help: "Print every inlined frame, innermost first.")
    var inlines = false

    @Flag(name: [.customLong("full-path"), .customLong("fullPath", withSingleDash: true)], help: "Print full source paths.")
    var fullPath = false

    @Flag(name: .customLong("json"), help: "Print one JSON object per address, with the whole inline chain.")
    var json = false

    @Argument(help: "Addresses to resolve.")
    var addresses: [String] = []

    func run() throws {
        let symbolizer = try objectOptions.openSymbolizer()
        let loaded = objectOptions.loadedImage(imageBase: symbolizer.image.imageBase)
        let renderer = ResolutionRenderer(
            style: .init(showsInlinedFrames: inlines, showsFullPaths: fullPath), imageName: symbolizer.image.fileName)
        var answered = 0
        var rejected = 0
        AddressSource.forEach(in: addresses) { input in
            guard let value = AddressInput.atos.parse(input) else {
                rejected += 1
                Output.error("'\(input)' is not an address")
                if json { Output.line(renderer.json(invalidInput: input, object: objectOptions.object, error: "not an address")) }
                return
            }
            answered += 1
            let address = loaded?.fileAddress(ofRuntime: value) ?? FileAddress(value)
            let resolution = symbolizer.resolve(address)
            if json {
                Output.line(renderer.json(resolution, input: input, object: objectOptions.object, runtimeAddress: loaded == nil ? nil : value))
            } else {
                renderer.text(resolution, input: input).forEach(Output.line)
            }
        }
        objectOptions.finish(symbolizer)
        if answered == 0, rejected > 0 { throw ExitCode.failure }
    }
}
