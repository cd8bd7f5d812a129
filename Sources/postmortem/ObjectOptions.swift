import ArgumentParser
import CommandLineOptions
import ObjectFiles

/// The options that name an object file and say where it was loaded, shared by `resolve` and `info`.
struct ObjectOptions: ParsableArguments {
    @Option(name: CommandOption.object.names, help: "The binary, shared library or debug file.", completion: .file())
    var object: String

    @Option(
        name: CommandOption.arch.names,
        help: "The slice of a universal (fat) file: arm64, arm64e, x86_64, armv7, i386 ….")
    var arch: Architecture?

    @Option(
        name: CommandOption.loadAddress.names,
        help: "Where the image was loaded (hex); addresses are then runtime addresses.")
    var loadAddress: AddressArgument?

    @Option(
        name: CommandOption.slide.names,
        help: "How far the image was moved (hex); addresses are then runtime addresses.")
    var slide: AddressArgument?

    @OptionGroup var debugPathOption: DebugPathOption

    @OptionGroup var demangleOption: DemangleOption

    @OptionGroup var indexCacheOption: IndexCacheOption

    @OptionGroup var offlineOption: OfflineOption

    /// The parsed values.
    var selection: ObjectSelection {
        ObjectSelection(
            object: object, arch: arch, loadAddress: loadAddress, slide: slide, debugPaths: debugPathOption.debugPaths,
            noDemangle: demangleOption.noDemangle, noCache: indexCacheOption.noCache, offline: offlineOption.offline)
    }
}
