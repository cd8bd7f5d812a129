import ArgumentParser
import ObjectFiles
import PostmortemCore
import Symbolication

/// `postmortem info`: gdb's `info symbol` and `info line` for one object file.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Answer gdb's info symbol and info line questions.",
        subcommands: [InfoSymbolCommand.self, InfoLineCommand.self]
    )
}

/// Shared by the `info` subcommands: resolve each address with one gdb-style answer. Addresses come from the command
/// line, or from standard input when none is given there (answered as they arrive, as `resolve` answers them).
private func answerEach(
    _ addresses: [String], selection: ObjectSelection, _ answer: (DebuggerRenderer, FileAddress, String) -> String
) throws {
    let symbolizer = try selection.openSymbolizer()
    let loaded = selection.loadedImage(imageBase: symbolizer.image.imageBase)
    let renderer = DebuggerRenderer(symbolizer: symbolizer)
    var answered = 0
    AddressSource.forEachBatch(
        in: addresses, reading: .gdb, fileAddress: { loaded?.fileAddress(ofRuntime: $0) ?? FileAddress($0) }
    ) { batch in
        for token in batch {
            guard let address = token.address else {
                Output.error("'\(token.text)' is not an address")
                continue
            }
            answered += 1
            Output.line(answer(renderer, address, token.text))
        }
    }
    selection.finish(symbolizer)
    if answered == 0 { throw ExitCode.failure }
}

struct InfoSymbolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbol",
        abstract: "Name the symbol an address lies in, as gdb's info symbol does (functions and data).")

    @OptionGroup var objectOptions: ObjectOptions

    @Argument(
        help: "Addresses: 0x… for hex, plain digits for decimal, as gdb reads them; none: read from standard input.")
    var addresses: [String] = []

    func run() throws {
        try answerEach(addresses, selection: objectOptions.selection) { renderer, address, input in
            renderer.infoSymbol(address, input: input)
        }
    }
}

struct InfoLineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "line",
        abstract: "Give the source line at an address and the addresses it covers, as gdb's info line *ADDR does.")

    @OptionGroup var objectOptions: ObjectOptions

    @Argument(
        help:
            "Addresses: 0x… for hex, plain digits for decimal; a leading * is accepted; none: read from standard input."
    )
    var addresses: [String] = []

    func run() throws {
        try answerEach(addresses, selection: objectOptions.selection) { renderer, address, _ in
            renderer.infoLine(address)
        }
    }
}
