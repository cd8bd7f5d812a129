import ArgumentParser
import BreakpadSymbols
import ObjectFiles
import PostmortemCore
import Symbolication

/// What `postmortem resolve` was asked, as plain values, and the work of answering it. ``ResolveCommand`` fills it in
/// through ArgumentParser; `ResolveRequest(commandLine:)` reads the common command lines without it.
struct ResolveRequest: Equatable {
    var selection: ObjectSelection
    /// Print every inlined frame, innermost first.
    var inlines = false
    /// Print full source paths.
    var fullPath = false
    /// One JSON object per address.
    var json = false
    /// Addresses as typed; none means standard input.
    var addresses: [String] = []
    /// Source lines printed before and after each answer's line (`--source-context`), and the path rewrites
    /// (`--source-map FROM=TO`) applied before reading them.
    var sourceContext = 0
    var sourceMaps: [String] = []
    /// `--color`: auto, always or never.
    var color = ColorChoice.auto

    /// A share of a batch answered: the bytes of the lines that answer its inputs, in order, and the inputs that
    /// are not addresses, each with the number of bytes that come before its error.
    struct Answers: Sendable {
        var bytes: [UInt8] = []
        var rejected: [(offset: Int, input: String)] = []
    }

    /// Resolves the addresses and ends the process.
    /// - Throws: exit status 64 for bad option values, 1 when the object cannot be read or no input was an address.
    func run() throws -> Never {
        if SymbolFileIndex.isSymbolFile(selection.object) { try SymbolFileResolveRequest(request: self).run() }
        // Source lines are read for one answer after another, on one thread.
        var sourceReader = try PresentationOptions.sourceReader(context: sourceContext, maps: sourceMaps)
        let binaryDirectory = FilePath.directory(of: selection.object)
        let symbolizer = try selection.openSymbolizer()
        sourceReader = sourceReader?.fetching(from: symbolizer.options.remoteDebugFiles)
        let loaded = selection.loadedImage(imageBase: symbolizer.image.imageBase)
        let colors = color.colors(writingJSON: json, toFile: false)
        let renderer = ResolutionRenderer(
            style: .init(showsInlinedFrames: inlines, showsFullPaths: fullPath), imageName: symbolizer.image.fileName,
            colors: colors)
        let answering = Answering(
            symbolizer: symbolizer, renderer: renderer, json: json, object: selection.object, loaded: loaded)
        // Source lines are read in order, on one thread.
        let resolver = BatchResolver(symbolizer: symbolizer, sharesBatches: sourceReader == nil)
        var inputs = 0
        var rejected = 0
        AddressSource.forEachBatch(
            in: addresses, reading: .atos, fileAddress: answering.fileAddress,
            arrived: { resolver.readAhead($0.compactMap(\.address)) }
        ) { batch in
            inputs += batch.count
            let shares =
                if let sourceReader {
                    [answering.answer(batch[...], filling: sourceReader, besides: binaryDirectory)]
                } else {
                    resolver.shares(count: batch.count) { _, range in answering.answer(batch[range]) }
                }
            for answers in shares {
                rejected += answers.rejected.count
                // What comes before a bad input is written before its error, so the two streams stay in order.
                var written = 0
                for (offset, input) in answers.rejected {
                    Output.bytes(answers.bytes[written..<offset])
                    Output.error("'\(input)' is not an address")
                    written = offset
                }
                Output.bytes(answers.bytes[written...])
            }
        }
        if let summary = sourceReader?.summary() { Output.error(summary) }
        selection.finish(symbolizer)
        // Exit 1 only when no input was an address.
        if rejected > 0, rejected == inputs { throw ExitCode.failure }
        ProcessEnd.exitWithoutTeardown(keeping: symbolizer)
    }
}

/// How `resolve` answers one share of a batch of inputs: the lines (or JSON objects) for its addresses, in order.
private struct Answering: Sendable {
    let symbolizer: ImageSymbolizer
    let renderer: ResolutionRenderer
    let json: Bool
    let object: String
    /// Where the image was loaded, when addresses are runtime ones (`-l`).
    let loaded: LoadedImage?

    /// Answers this many inputs before reserving room for the rest of a share at their average size.
    static let sizingSample = 16

    func fileAddress(_ value: UInt64) -> FileAddress { loaded?.fileAddress(ofRuntime: value) ?? FileAddress(value) }

    /// The answers to `inputs`, with source lines from `sourceReader` when given (read from files beside
    /// `binaryDirectory` too).
    func answer(
        _ inputs: ArraySlice<AddressToken>, filling sourceReader: SourceContextReader? = nil,
        besides binaryDirectory: String? = nil
    ) -> ResolveRequest.Answers {
        var answers = ResolveRequest.Answers()
        for (position, token) in inputs.enumerated() {
            if position == Self.sizingSample {
                answers.bytes.reserveCapacity(answers.bytes.count / position * inputs.count * 9 / 8)
            }
            guard let address = token.address else {
                answers.rejected.append((answers.bytes.count, token.text))
                if json {
                    answers.bytes +=
                        renderer.json(invalidInput: token.text, object: object, error: "not an address").utf8
                    answers.bytes.append(UInt8(ascii: "\n"))
                }
                continue
            }
            var resolution = symbolizer.resolve(address)
            sourceReader?.fill(&resolution.frames, besides: binaryDirectory, buildID: symbolizer.sourceBuildID)
            if json {
                answers.bytes +=
                    renderer.json(
                        resolution, input: token.text, object: object,
                        runtimeAddress: loaded == nil ? nil : token.value
                    ).utf8
                answers.bytes.append(UInt8(ascii: "\n"))
            } else {
                renderer.appendText(resolution, input: token.text, to: &answers.bytes)
            }
        }
        return answers
    }
}
