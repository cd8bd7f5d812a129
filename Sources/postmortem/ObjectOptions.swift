import ArgumentParser
import ObjectFiles
import Symbolication

/// The options that name an object file and say where it was loaded, shared by `resolve` and `info`.
struct ObjectOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("object")], help: "The binary, shared library or debug file.")
    var object: String

    @Option(name: [.customLong("arch"), .customLong("arch", withSingleDash: true)],
            help: "The slice of a universal (fat) file: arm64, arm64e, x86_64, armv7, i386 ….")
    var arch: String?

    @Option(name: [.customShort("l"), .customLong("load-address")],
            help: "Where the image was loaded; addresses are then runtime addresses.")
    var loadAddress: String?

    @Option(name: [.customShort("s"), .customLong("slide")], help: "How far the image was moved; addresses are then runtime addresses.")
    var slide: String?

    @Option(name: [.customShort("d"), .customLong("debug-path")],
            help: "A root to search for debug files (ROOT/.build-id/xx/rest.debug); may be repeated.")
    var debugPaths: [String] = []

    @Flag(name: .customLong("no-demangle"), help: "Print linkage names as stored.")
    var noDemangle = false

    @Flag(name: .customLong("no-cache"), help: "Neither read nor write the index cache (see `postmortem cache`).")
    var noCache = false

    /// Checks the option values. Done here rather than in `validate()`: when validation fails,
    /// ArgumentParser reads atos's single-dash spellings (`-arch`, `-fullPath`) as bundles of short
    /// flags that contain `-h`, and prints the help instead of the error.
    /// - Throws: exit status 64 after one line on stderr.
    func checkValues() throws {
        var problem: String?
        if loadAddress != nil, slide != nil { problem = "give either --load-address or --slide, not both" }
        if let loadAddress, AddressInput.atos.parse(loadAddress) == nil { problem = "'\(loadAddress)' is not a load address" }
        if let slide, AddressInput.atos.parse(slide) == nil { problem = "'\(slide)' is not a slide" }
        if let arch, Architecture(name: arch) == nil {
            problem = "'\(arch)' is not an architecture this tool knows (arm64, arm64e, x86_64, x86_64h, i386, armv7, armv7s, armv7k, arm64_32)"
        }
        if let problem {
            Output.error(problem)
            throw ExitCode.validationFailure
        }
    }

    var symbolizerOptions: SymbolizerOptions {
        SymbolizerOptions(demangle: !noDemangle, debugFileSearch: DebugFileSearch(roots: debugPaths),
                          architecture: arch.flatMap(Architecture.init(name:)), indexCache: noCache ? nil : IndexCache.standard())
    }

    /// Opens the object, printing its notes; exits with status 1 when it cannot be read.
    func openSymbolizer() throws -> ImageSymbolizer {
        try checkValues()
        do {
            let symbolizer = try ImageSymbolizer(path: object, options: symbolizerOptions)
            symbolizer.notes.forEach(Output.error)
            return symbolizer
        } catch {
            Output.error(error.description)
            throw ExitCode.failure
        }
    }

    /// Writes the image's index-cache file when it needs one, printing what went wrong.
    func finish(_ symbolizer: ImageSymbolizer) {
        let noted = symbolizer.notes.count
        symbolizer.writeIndexCache()
        symbolizer.notes[noted...].forEach(Output.error)
    }

    /// Where the image ran, when the addresses are runtime addresses.
    func loadedImage(imageBase: FileAddress) -> LoadedImage? {
        if let loadAddress, let value = AddressInput.atos.parse(loadAddress) { return LoadedImage(loadAddress: value, imageBase: imageBase) }
        if let slide, let value = AddressInput.atos.parse(slide) { return LoadedImage(slide: value) }
        return nil
    }
}
