import ArgumentParser
import CommandLineOptions
import ObjectFiles
import Symbolication

/// `postmortem images PATH…`: the identity of binaries and debug files, and the debug file each would use.
struct ImagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "images",
        abstract: "Identify binaries and debug files: format, architectures, UUID or build-id, DWARF, debug file.")

    @OptionGroup var debugPathOption: DebugPathOption

    @OptionGroup var offlineOption: OfflineOption

    @Flag(name: CommandOption.json.names, help: "Print one JSON object per image (each slice of a universal file).")
    var json = false

    @Argument(help: "Binaries, debug files, universal files or .dSYM bundles.", completion: .file())
    var paths: [String]

    func run() throws {
        DebugPathCheck.reportUnsearchable(debugPathOption.debugPaths)
        let renderer = ImageInfoRenderer()
        let locator = DebugFileLocator(
            search: DebugFileSearch(roots: debugPathOption.debugPaths),
            remote: DebuginfodSetup.remoteDebugFiles(offline: offlineOption.offline))
        var described = 0
        for path in paths {
            let images: [ObjectFile]
            do { images = try ObjectFileReader.readAll(path: path) } catch {
                Output.error(CommandLineAdvice.line(error.description, error.remedy))
                continue
            }
            for image in images {
                let lookup = image.hasDWARF ? nil : locator.locateDebugFile(for: image)
                let dwarfFile = image.hasDWARF ? image : lookup?.debugFile
                let supplementary = dwarfFile.flatMap(locator.locateSupplementaryFile)
                Output.line(
                    json
                        ? renderer.json(image, lookup: lookup, supplementary: supplementary)
                        : renderer.text(image, lookup: lookup, supplementary: supplementary))
                if !json {
                    lookup?.rejections.forEach {
                        Output.error("\($0.path): not used as debug file of \(image.path): \($0.reason)")
                    }
                    supplementary?.rejections.forEach {
                        Output.error("\($0.path): not used as dwz common file of \(image.path): \($0.reason)")
                    }
                    if let reason = lookup?.unavailableRemotely {
                        Output.error("\(image.path): no debug file: \(reason)")
                    }
                }
                described += 1
            }
        }
        if described == 0 { throw ExitCode.failure }
    }
}
