import Foundation
import TestSupport
import Testing

/// Golden files for CLI output: the command, its standard output, standard error and exit status.
/// `UPDATE_GOLDEN=1 swift test` rewrites them from the current output (see ``GoldenFile``).
enum Golden {
    static var isUpdating: Bool { GoldenFile.isUpdating }

    /// The transcript of one run, as a golden file holds it.
    static func transcript(arguments: [String], input: String?, result: CommandResult) -> String {
        var text = "$ postmortem " + arguments.joined(separator: " ") + "\n"
        if let input { text += "[stdin]\n" + input + (input.hasSuffix("\n") ? "" : "\n") }
        text += "[stdout]\n" + result.standardOutput
        if !result.standardError.isEmpty { text += "[stderr]\n" + result.standardError }
        text += "[exit \(result.status)]\n"
        return text
    }

    /// The standard output a golden file holds, line by line, as ``transcript(arguments:input:result:)`` wrote it:
    /// the lines between `[stdout]` and the next `[…]` marker.
    static func standardOutput(of name: String) throws -> [String] {
        let text = try String(contentsOf: Paths.golden.appendingPathComponent(name + ".txt"), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0 != "[stdout]" }.dropFirst().prefix { !$0.hasPrefix("[") }.map(String.init)
    }

    /// Runs `postmortem arguments` and compares the transcript with `Golden/name.txt`.
    /// - Parameter hostIndependent: what is taken out of the output before it is compared (what this machine's own
    ///   libraries made of it, say).
    static func check(
        _ name: String, _ arguments: [String], input: String? = nil,
        hostIndependent: (CommandResult) -> CommandResult = { $0 },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = hostIndependent(try Command.postmortem(arguments, input: input))
        let actual = transcript(arguments: arguments, input: input, result: result)
        GoldenFile.check(
            actual, against: Paths.golden.appendingPathComponent(name + ".txt"), sourceLocation: sourceLocation)
    }
}
