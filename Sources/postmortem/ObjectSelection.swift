import ArgumentParser
import ObjectFiles
import PostmortemCore
import Symbolication

/// The object file a command reads and where it was loaded, as plain values: what ``ObjectOptions`` parses, and
/// what ``ResolveRequest``'s own reading of a command line fills in without ArgumentParser.
struct ObjectSelection: Equatable {
    /// The binary, shared library, debug file or `.dSYM` bundle.
    var object: String
    /// The slice of a universal file.
    var arch: Architecture?
    /// Where the image was loaded.
    var loadAddress: AddressArgument?
    /// How far the image was moved.
    var slide: AddressArgument?
    /// Roots to search for debug files.
    var debugPaths: [String] = []
    var noDemangle = false
    var noCache = false
    /// Ask no debuginfod server (`--offline`).
    var offline = false

    /// Checks what ArgumentParser cannot check value by value. Done here rather than in `validate()`: when
    /// validation fails, ArgumentParser reads atos's single-dash spellings (`-arch`, `-fullPath`) as bundles of
    /// short flags that contain `-h`, and prints the help instead of the error.
    /// - Throws: exit status 64 after one line on stderr.
    func checkValues() throws {
        if loadAddress != nil, slide != nil {
            Output.error("give either --load-address or --slide, not both")
            throw ExitCode.validationFailure
        }
    }

    var symbolizerOptions: SymbolizerOptions {
        var options = SymbolizerOptions(
            demangle: !noDemangle, debugFileSearch: DebugFileSearch(roots: debugPaths),
            architecture: arch, indexCache: noCache ? nil : IndexCache.standard(),
            remoteDebugFiles: DebuginfodSetup.remoteDebugFiles(offline: offline))
        options.writesIndexCacheInRun = IndexCacheWriting.writesInRun
        return options
    }

    /// Opens the object, printing what opening found, and what lookups find later as they find it; exits with
    /// status 1 when it cannot be read.
    func openSymbolizer() throws -> ImageSymbolizer {
        try checkValues()
        DebugPathCheck.reportUnsearchable(debugPaths)
        do {
            let diagnostics = StandardErrorDiagnostics()
            let symbolizer = try ImageSymbolizer(
                path: object, options: symbolizerOptions, diagnostics: diagnostics.sink)
            symbolizer.openingDiagnostics.forEach(diagnostics.say)
            return symbolizer
        } catch {
            Output.error(CommandLineAdvice.line(error.description, error.remedy))
            throw ExitCode.failure
        }
    }

    /// Writes the image's index-cache file when it needs one (what writing finds goes where the symbolizer's
    /// diagnostics go).
    func finish(_ symbolizer: ImageSymbolizer) {
        IndexCacheWriting.finish([symbolizer], cache: symbolizer.options.indexCache, debugRoots: debugPaths) {
            $0.writeIndexCache()
        }
    }

    /// Where the image ran, when the addresses are runtime addresses.
    func loadedImage(imageBase: FileAddress) -> LoadedImage? {
        if let loadAddress { return LoadedImage(loadAddress: loadAddress.value, imageBase: imageBase) }
        if let slide { return LoadedImage(slide: slide.value) }
        return nil
    }
}
