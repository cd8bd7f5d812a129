import ArgumentParser

/// `-d`/`--debug-path`, as every command that looks for binaries or debug files takes it: one help text for all.
package struct DebugPathOption: ParsableArguments {
    /// The help every command shows for `-d`.
    package static let help =
        "A directory searched, with its subdirectories, for binaries and debug files (by build-id, "
        + "debug link or name); may be repeated."

    /// The folders, in the order given.
    @Option(name: CommandOption.debugPath.names, help: ArgumentHelp(stringLiteral: help), completion: .directory)
    package var debugPaths: [String] = []

    /// None given, for ArgumentParser to fill in.
    package init() {}
}

/// `--no-cache`: the index cache neither read nor written this run.
package struct IndexCacheOption: ParsableArguments {
    /// The help every command shows for `--no-cache`.
    package static let help = "Neither read nor write the index cache (see `postmortem cache`)."

    /// Whether the index cache is off.
    @Flag(name: CommandOption.noCache.names, help: ArgumentHelp(stringLiteral: help))
    package var noCache = false

    /// The cache on, for ArgumentParser to fill in.
    package init() {}
}

/// `--offline`: no debuginfod server asked this run.
package struct OfflineOption: ParsableArguments {
    /// The help every command shows for `--offline`.
    package static let help =
        "Ask no debuginfod server (DEBUGINFOD_URLS) this run; files downloaded before are still used."

    /// Whether debuginfod is not asked.
    @Flag(name: CommandOption.offline.names, help: ArgumentHelp(stringLiteral: help))
    package var offline = false

    /// Online, for ArgumentParser to fill in.
    package init() {}
}

/// `--no-demangle`: linkage names printed as the binary stores them.
package struct DemangleOption: ParsableArguments {
    /// The help every command shows for `--no-demangle`.
    package static let help = "Print linkage names as stored."

    /// Whether names are left mangled.
    @Flag(name: CommandOption.noDemangle.names, help: ArgumentHelp(stringLiteral: help))
    package var noDemangle = false

    /// Demangling, for ArgumentParser to fill in.
    package init() {}
}

/// `--symbols`: Breakpad symbol stores that answer for images whose binary is not found (`serve` has its own: it serves
/// them).
package struct SymbolStoreOption: ParsableArguments {
    /// The help every command shows for `--symbols`.
    package static let help =
        "A Breakpad symbol store (NAME/DEBUGID/NAME.sym) answering for images whose binary is not found; may be repeated."

    /// The stores, in the order given.
    @Option(name: CommandOption.symbols.names, help: ArgumentHelp(stringLiteral: help), completion: .directory)
    package var symbolStores: [String] = []

    /// None given, for ArgumentParser to fill in.
    package init() {}
}

/// `--verbose`: each image without debug information named on a line of its own.
package struct VerboseOption: ParsableArguments {
    /// The help every command shows for `--verbose`.
    package static let help =
        "Name each image that has no debug information on a line of its own (they are named together in one line otherwise)."

    /// Whether images are named one by one.
    @Flag(name: CommandOption.verbose.names, help: ArgumentHelp(stringLiteral: help))
    package var verbose = false

    /// Together, for ArgumentParser to fill in.
    package init() {}
}
