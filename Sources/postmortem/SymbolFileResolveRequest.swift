import ArgumentParser
import BreakpadSymbols
import ObjectFiles
import PostmortemCore
import Symbolication

/// `resolve -o FILE.sym`: addresses answered from a Breakpad symbol file, as they are from the binary it was written
/// from (functions, the inline chain, file and line; no columns, which symbol files do not hold). Addresses are offsets
/// from the module's base, as symbol files and minidump-stackwalk's `module_offset` count them (file addresses of a
/// position-independent binary).
struct SymbolFileResolveRequest {
    let request: ResolveRequest

    /// Resolves the addresses and ends the process.
    /// - Throws: exit status 1 when the file cannot be read or no input was an address.
    func run() throws -> Never {
        let selection = request.selection
        let index: SymbolFileIndex
        let cache = selection.noCache ? nil : IndexCache.standard()
        do { index = try SymbolFileIndex.open(path: selection.object, cache: cache) } catch {
            Output.error(error.description)
            throw ExitCode.failure
        }
        index.problems.forEach { Output.error("\(selection.object): \($0)") }
        let colors = request.color.colors(writingJSON: request.json, toFile: false)
        let renderer = ResolutionRenderer(
            style: .init(showsInlinedFrames: request.inlines, showsFullPaths: request.fullPath),
            imageName: index.module.name, colors: colors)
        let loaded = selection.loadedImage(imageBase: FileAddress(0))
        func fileAddress(_ value: UInt64) -> FileAddress { loaded?.fileAddress(ofRuntime: value) ?? FileAddress(value) }
        var inputs = 0
        var rejected = 0
        AddressSource.forEachBatch(in: request.addresses, reading: .atos, fileAddress: fileAddress) { batch in
            var bytes: [UInt8] = []
            for token in batch {
                inputs += 1
                guard let address = token.address else {
                    rejected += 1
                    Output.bytes(bytes[...])
                    bytes.removeAll()
                    if request.json {
                        Output.text(
                            renderer.json(invalidInput: token.text, object: selection.object, error: "not an address")
                                + "\n")
                    }
                    Output.error("'\(token.text)' is not an address")
                    continue
                }
                let resolution = index.resolve(address.rawValue)
                if request.json {
                    bytes +=
                        renderer.json(
                            resolution, input: token.text, object: selection.object,
                            runtimeAddress: loaded == nil ? nil : token.value
                        ).utf8
                    bytes.append(UInt8(ascii: "\n"))
                } else {
                    renderer.appendText(resolution, input: token.text, to: &bytes)
                }
            }
            Output.bytes(bytes[...])
        }
        Output.flush()
        // The tables just parsed, copied out once the answers are out: a later run maps them instead.
        if let cache, let problem = index.writeIndexFile(to: cache) { Output.error(problem) }
        if rejected > 0, rejected == inputs { throw ExitCode.failure }
        ProcessEnd.exitWithoutTeardown(keeping: index)
    }
}
