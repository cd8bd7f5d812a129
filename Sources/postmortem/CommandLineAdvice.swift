import CrashLogs
import PostmortemCore
import Symbolication

/// The command line's words for what the user can do (``Remedy``): the library says what is wrong, this says which
/// option or command helps.
enum CommandLineAdvice {
    /// The advice for `remedy`, as it follows a reason after `; `.
    static func words(for remedy: Remedy) -> String {
        switch remedy {
        case .giveBinary: "try -d DIR (a folder holding it) or -o BINARY"
        case .giveCrashedBuild: "give the build that crashed with -d DIR or -o BINARY"
        case .giveDebugFile: "give its debug file with -d DIR"
        case .giveBinaryForFramesWithoutImage: "give its binary with -o"
        case .giveLoadAddress: "give its binary with -o and where it was loaded with -l"
        case .chooseSlice: "choose one with --arch"
        case .resolveInBinary: "resolve addresses in it with postmortem resolve -o FILE"
        case .decompress(let command): "decompress it first (\(command) FILE | postmortem symbolicate -)"
        case .giveByPath: "give it by its path to postmortem symbolicate, which unwinds it"
        case .convertToUTF8: "convert it first (iconv -f UTF-16 -t UTF-8 FILE | postmortem symbolicate -)"
        }
    }

    /// `text`, followed by the advice for `remedy` when there is one.
    static func line(_ text: String, _ remedy: Remedy?) -> String {
        remedy.map { text + "; " + words(for: $0) } ?? text
    }

    /// A reason a frame stayed unresolved, with what to try.
    static func line(_ reason: UnresolvedReason) -> String {
        line(reason.description, reason.remedy)
    }

    /// One line per image whose frames stay unresolved: how many, why, and what to try.
    static func unresolvedSummary(_ images: [Symbolicator.UnresolvedImage]) -> [String] {
        images.map { "\($0.name): \($0.unresolved) of \($0.total) frames unresolved: " + line($0.reason) }
    }

    /// A log that cannot be read, with what to try.
    static func line(_ error: CrashLogError) -> String {
        line(error.description, error.remedy)
    }

    /// A diagnostic as the command line prints it: its line, with what to try.
    static func line(_ diagnostic: Diagnostic) -> String {
        line(diagnostic.description, diagnostic.remedy)
    }
}
