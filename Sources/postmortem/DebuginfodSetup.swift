import Debuginfod
import ObjectFiles
import PostmortemCore

/// The debuginfod client of a run: one when `DEBUGINFOD_URLS` names servers (`--offline`: answering from its cache
/// only), none otherwise, so that a run without it starts as it always did.
enum DebuginfodSetup {
    /// The run's client, or `nil` when `DEBUGINFOD_URLS` is unset or empty; what the environment gets wrong is said
    /// once, on standard error.
    static func remoteDebugFiles(offline: Bool, quiet: Bool = false) -> RemoteDebugFileSource? {
        guard let settings = DebuginfodSettings.fromProcessEnvironment() else { return nil }
        if !quiet { settings.problems.forEach(Output.error) }
        let client = DebuginfodClient(
            settings: settings, offline: offline,
            showsProgress: !quiet && FileSystem.standardErrorIsTerminal
        ) { text in
            if !quiet { FileSystem.Writer.standardError.write(Array(text.utf8)) }
        }
        return RemoteDebugFileSource(client)
    }
}
