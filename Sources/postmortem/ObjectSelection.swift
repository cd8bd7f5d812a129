import ArgumentParser
import ObjectFiles
import Symbolication
import PostmortemCore

/// The object file a command reads and where it was loaded, as plain values: what ``ObjectOptions`` parses, and
/// what ``ResolveRequest``'s own reading of a command line fills in without ArgumentParser.
struct ObjectSelection: Equatable {
    /// The binary, shared library, debug file or `.dSYM` bundle.
    var object: String
    /// The slice of a universal file, as typed.
    var arch: String?
    /// Where the image was loaded, as typed (hex, as atos reads it).
    var loadAddress: String?
    /// How far the image was moved, as typed.
    var slide: String?
    /// Roots to search for debug files.
    var debugPaths: [String] = []
    var noDemangle = false
    var noCache = false
    /// Ask no debuginfod server (`--offline`).
    var offline = false

    /// Checks the option values. Done here rather than in `validate()`: when validation fails,
    /// ArgumentParser reads atos's single-dash spellings (`-arch`, `-fullPath`) as bundles of short
    /// flags that contain `-h`, and prints the help instead of the error.
    /// - Throws: exit status 64 after one line on stderr.
    func checkValues() throws {
        var problem: String?
        if loadAddress != nil, slide != nil { problem = "give either --load-address or --slide, not both" }
        if let loadAddress, let why = OptionValues.loadAddressProblem(loadAddress) { problem = why }
        if let slide, let why = OptionValues.slideProblem(slide) { problem = why }
        if let arch, let why = OptionValues.architectureProblem(arch) { problem = why }
        if let problem {
            Output.error(problem)
            throw ExitCode.validationFailure
        }
    }

    var symbolizerOptions: SymbolizerOptions {
        var options = SymbolizerOptions(demangle: !noDemangle, debugFileSearch: DebugFileSearch(roots: debugPaths),
                                        architecture: arch.flatMap(Architecture.init(name:)), indexCache: noCache ? nil : IndexCache.standard(),
                                        remoteDebugFiles: DebuginfodSetup.remoteDebugFiles(offline: offline))
        options.writesIndexCacheInRun = IndexCacheWriting.writesInRun
        return options
    }

    /// Opens the object, printing what opening found, and what lookups find later as they find it; exits with
    /// status 1 when it cannot be read.
    func openSymbolizer() throws -> ImageSymbolizer {
        try checkValues()
        do {
            let diagnostics = StandardErrorDiagnostics()
            let symbolizer = try ImageSymbolizer(path: object, options: symbolizerOptions, diagnostics: diagnostics.sink)
            symbolizer.openingDiagnostics.forEach(diagnostics.say)
            return symbolizer
        } catch {
            Output.error(error.description)
            throw ExitCode.failure
        }
    }

    /// Writes the image's index-cache file when it needs one (what writing finds goes where the symbolizer's
    /// diagnostics go).
    func finish(_ symbolizer: ImageSymbolizer) {
        IndexCacheWriting.finish([symbolizer], cache: symbolizer.options.indexCache, debugRoots: debugPaths) { $0.writeIndexCache() }
    }

    /// Where the image ran, when the addresses are runtime addresses.
    func loadedImage(imageBase: FileAddress) -> LoadedImage? {
        if let loadAddress, let value = AddressInput.atos.parse(loadAddress) { return LoadedImage(loadAddress: value, imageBase: imageBase) }
        if let slide, let value = AddressInput.atos.parse(slide) { return LoadedImage(slide: value) }
        return nil
    }
}
