import ArgumentParser
import CrashLogs
import ObjectFiles
import PostmortemCore

/// `--color auto|always|never`, and the conventions terminals' users set: `NO_COLOR` (set and not empty) turns colour
/// off, `CLICOLOR_FORCE` (set, not `0`) on, `TERM=dumb` off; `auto` colours standard output only when it is a
/// terminal. Never JSON, never a file written with `--output`.
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, always, never

    /// The colours to print with, or `nil` for plain text.
    func colors(writingJSON: Bool, toFile: Bool) -> TerminalColors? {
        guard !writingJSON, !toFile else { return nil }
        switch self {
        case .never: return nil
        case .always: return TerminalColors()
        case .auto:
            if FileSystem.environment("NO_COLOR") != nil { return nil }
            if let force = FileSystem.environment("CLICOLOR_FORCE"), force != "0" { return TerminalColors() }
            if FileSystem.environment("TERM") == "dumb" { return nil }
            return FileSystem.standardOutputIsTerminal ? TerminalColors() : nil
        }
    }
}
