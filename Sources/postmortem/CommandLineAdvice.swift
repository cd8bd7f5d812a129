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
    /// - Parameters:
    ///   - format: the log's format: a debugger's log places its images by a table the debugger prints.
    ///   - describe: a reason's words (a symbolicator's, made once a run for each reason).
    static func unresolvedSummary(
        _ images: [Symbolicator.UnresolvedImage], format: CrashLogFormat? = nil,
        describe: (UnresolvedReason) -> String = \.description
    ) -> [String] {
        images.map { image in
            let text =
                "\(image.name): \(image.unresolved) of \(image.total) frames unresolved: " + describe(image.reason)
            guard let remedy = image.reason.remedy else { return text }
            return text + "; " + (debuggerTableAdvice(remedy, format: format) ?? words(for: remedy))
        }
    }

    /// What places a debugger log's images, where the log lacks their load addresses: the debugger's own table of
    /// them (one `-o`/`-l` pair places one image, and a log names several).
    private static func debuggerTableAdvice(_ remedy: Remedy, format: CrashLogFormat?) -> String? {
        guard remedy == .giveLoadAddress || remedy == .giveBinaryForFramesWithoutImage else { return nil }
        switch format {
        case .gdbBacktrace:
            return "add gdb's table of images to the log (gdb -batch -ex bt -ex 'info proc mappings' PROGRAM CORE), or "
                + words(for: remedy)
        case .lldbBacktrace:
            return "add lldb's table of images to the log (lldb --batch -o bt -o 'image list' -c CORE PROGRAM), or "
                + words(for: remedy)
        default:
            return nil
        }
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
