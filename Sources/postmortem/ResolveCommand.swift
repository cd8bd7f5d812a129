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

    /// A batch this large is shared between two symbolizers on two threads (each reading DWARF through its
    /// own libdwarf session, or both reading the index cache).
    static let parallelBatchSize = 256

    /// Input this large has what it needs from DWARF read ahead, on two threads (when lookups read DWARF): a
    /// few addresses are cheaper to answer one at a time from the subprograms that hold them.
    static let readAheadSize = 16

    /// A share of a batch answered: the bytes of the lines that answer its inputs, in order, and the inputs that
    /// are not addresses, each with the number of bytes that come before its error. One per thread, kept from batch
    /// to batch: its memory is touched once, not faulted in again for every batch of megabytes of output.
    private final class Answers {
        var bytes: [UInt8] = []
        var rejected: [(offset: Int, input: String)] = []

        func reset() {
            bytes.removeAll(keepingCapacity: true)
            rejected.removeAll()
        }
    }

    /// Answers this many inputs before reserving room for the rest of a share at their average size.
    private static let sizingSample = 16

    func run() throws {
        let symbolizer = try objectOptions.openSymbolizer()
        let loaded = objectOptions.loadedImage(imageBase: symbolizer.image.imageBase)
        let renderer = ResolutionRenderer(
            style: .init(showsInlinedFrames: inlines, showsFullPaths: fullPath), imageName: symbolizer.image.fileName)
        func fileAddress(_ value: UInt64) -> FileAddress { loaded?.fileAddress(ofRuntime: value) ?? FileAddress(value) }
        func answer(by worker: (symbolizer: ImageSymbolizer, answers: Answers), _ inputs: ArraySlice<String>) -> Answers {
            let (symbolizer, answers) = worker
            for (position, input) in inputs.enumerated() {
                if position == Self.sizingSample {
                    answers.bytes.reserveCapacity(answers.bytes.count / position * inputs.count * 9 / 8)
                }
                guard let value = AddressInput.atos.parse(input) else {
                    answers.rejected.append((answers.bytes.count, input))
                    if json {
                        answers.bytes += renderer.json(invalidInput: input, object: objectOptions.object, error: "not an address").utf8
                        answers.bytes.append(UInt8(ascii: "\n"))
                    }
                    continue
                }
                let resolution = symbolizer.resolve(fileAddress(value))
                if json {
                    answers.bytes += renderer.json(resolution, input: input, object: objectOptions.object, runtimeAddress: loaded == nil ? nil : value).utf8
                    answers.bytes.append(UInt8(ascii: "\n"))
                } else {
                    renderer.appendText(resolution, input: input, to: &answers.bytes)
                }
            }
            return answers
        }
        let mainWorker = (symbolizer: symbolizer, answers: Answers())
        var helper: (symbolizer: ImageSymbolizer, answers: Answers)?
        var inputs = 0
        var rejected = 0
        func workers(for count: Int) -> [(symbolizer: ImageSymbolizer, answers: Answers)] {
            guard count >= Self.parallelBatchSize else { return [mainWorker] }
            if helper == nil { helper = symbolizer.sibling().map { ($0, Answers()) } }
            return [mainWorker] + (helper.map { [$0] } ?? [])
        }
        // What a large read of input needs from DWARF is read first, on two threads reading different units.
        let readAhead = { (tokens: [String]) in
            guard tokens.count >= Self.readAheadSize else { return }
            symbolizer.readAhead(tokens.compactMap { AddressInput.atos.parse($0).map(fileAddress) }, threads: 2)
        }
        AddressSource.forEachBatch(in: addresses, arrived: readAhead) { batch in
            inputs += batch.count
            for answers in ParallelBatch.shares(batch, workers: workers(for: batch.count), answer) {
                rejected += answers.rejected.count
                // What comes before a bad input is written before its error, so the two streams stay in order.
                var written = 0
                for (offset, input) in answers.rejected {
                    Output.bytes(answers.bytes[written..<offset])
                    Output.error("'\(input)' is not an address")
                    written = offset
                }
                Output.bytes(answers.bytes[written...])
                answers.reset()
            }
        }
        objectOptions.finish(symbolizer)
        // Exit 1 only when no input was an address.
        if rejected > 0, rejected == inputs { throw ExitCode.failure }
        ProcessEnd.exitWithoutTeardown(keeping: symbolizer, helper?.symbolizer)
    }
}
