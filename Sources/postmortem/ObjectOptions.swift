import ArgumentParser
import ObjectFiles

/// The options that name an object file and say where it was loaded, shared by `resolve` and `info`.
struct ObjectOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("object")], help: "The binary, shared library or debug file.", completion: .file())
    var object: String

    @Option(name: [.customLong("arch"), .customLong("arch", withSingleDash: true)],
            help: "The slice of a universal (fat) file: arm64, arm64e, x86_64, armv7, i386 ….")
    var arch: Architecture?

    @Option(name: [.customShort("l"), .customLong("load-address")],
            help: "Where the image was loaded (hex); addresses are then runtime addresses.")
    var loadAddress: AddressArgument?

    @Option(name: [.customShort("s"), .customLong("slide")], help: "How far the image was moved (hex); addresses are then runtime addresses.")
    var slide: AddressArgument?

    @Option(name: [.customShort("d"), .customLong("debug-path")],
            help: "A root to search for debug files (ROOT/.build-id/xx/rest.debug); may be repeated.", completion: .directory)
    var debugPaths: [String] = []

    @Flag(name: .customLong("no-demangle"), help: "Print linkage names as stored.")
    var noDemangle = false

    @Flag(name: .customLong("no-cache"), help: "Neither read nor write the index cache (see `postmortem cache`).")
    var noCache = false

    @Flag(name: .customLong("offline"), help: ArgumentHelp(stringLiteral: DebuginfodSetup.offlineHelp))
    var offline = false

    /// The parsed values.
    var selection: ObjectSelection {
        ObjectSelection(object: object, arch: arch, loadAddress: loadAddress, slide: slide, debugPaths: debugPaths,
                        noDemangle: noDemangle, noCache: noCache, offline: offline)
    }
}
