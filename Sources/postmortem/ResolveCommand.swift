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

    /// A batch this large is shared between two symbolizers on two threads, when the index cache answers.
    static let parallelBatchSize = 256

    /// What one input gets: the lines that answer it, or nothing when it is not an address.
    private enum Answer {
        case resolved([String])
        case notAnAddress(String)
    }

    func run() throws {
        let symbolizer = try objectOptions.openSymbolizer()
        let loaded = objectOptions.loadedImage(imageBase: symbolizer.image.imageBase)
        let renderer = ResolutionRenderer(
            style: .init(showsInlinedFrames: inlines, showsFullPaths: fullPath), imageName: symbolizer.image.fileName)
        func answer(_ input: String, by symbolizer: ImageSymbolizer) -> Answer {
            guard let value = AddressInput.atos.parse(input) else { return .notAnAddress(input) }
            let resolution = symbolizer.resolve(loaded?.fileAddress(ofRuntime: value) ?? FileAddress(value))
            if json {
                return .resolved([renderer.json(resolution, input: input, object: objectOptions.object,
                                                runtimeAddress: loaded == nil ? nil : value)])
            }
            return .resolved(renderer.text(resolution, input: input))
        }
        var helper: ImageSymbolizer?
        var answered = 0
        var rejected = 0
        AddressSource.forEachBatch(in: addresses) { batch in
            var workers = [symbolizer]
            // Only when the index cache answers: reading DWARF cannot be shared out (libdwarf runs on one thread).
            if batch.count >= Self.parallelBatchSize {
                if helper == nil { helper = symbolizer.sibling() }
                if let helper { workers.append(helper) }
            }
            var pending: [String] = []
            for result in ParallelBatch.map(batch, workers: workers, { answer($1, by: $0) }) {
                switch result {
                case .resolved(let lines):
                    answered += 1
                    pending += lines
                case .notAnAddress(let input):
                    rejected += 1
                    // What came before the bad input is written before its error, so the two streams stay in order.
                    Output.lines(pending)
                    pending = []
                    Output.error("'\(input)' is not an address")
                    if json { pending.append(renderer.json(invalidInput: input, object: objectOptions.object, error: "not an address")) }
                }
            }
            Output.lines(pending)
        }
        objectOptions.finish(symbolizer)
        if answered == 0, rejected > 0 { throw ExitCode.failure }
    }
}
