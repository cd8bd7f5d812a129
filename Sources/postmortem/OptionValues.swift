import ArgumentParser
import ObjectFiles

/// Option values every command reads alike, checked in one place with one wording: one line on stderr and exit
/// status 64 for a value that is not one.
enum OptionValues {
    /// The architectures `--arch` names, as the error lists them.
    static let knownArchitectures = "arm64, arm64e, x86_64, x86_64h, i386, armv7, armv7s, armv7k, arm64_32"

    /// Why `text` is no load address, or `nil` when it is one.
    static func loadAddressProblem(_ text: String) -> String? {
        AddressInput.atos.parse(text) == nil ? "'\(text)' is not a load address" : nil
    }

    /// Why `text` is no slide, or `nil` when it is one.
    static func slideProblem(_ text: String) -> String? {
        AddressInput.atos.parse(text) == nil ? "'\(text)' is not a slide" : nil
    }

    /// Why `text` names no architecture this tool reads, or `nil` when it names one.
    static func architectureProblem(_ text: String) -> String? {
        Architecture(name: text) == nil ? "'\(text)' is not an architecture this tool knows (\(knownArchitectures))" : nil
    }

    /// The load address `text` names.
    /// - Throws: exit status 64 after one line on stderr.
    static func loadAddress(_ text: String) throws -> UInt64 {
        guard let value = AddressInput.atos.parse(text) else { try fail(loadAddressProblem(text) ?? text) }
        return value
    }

    /// The architecture `text` names.
    /// - Throws: exit status 64 after one line on stderr.
    static func architecture(_ text: String) throws -> Architecture {
        guard let known = Architecture(name: text) else { try fail(architectureProblem(text) ?? text) }
        return known
    }

    private static func fail(_ problem: String) throws -> Never {
        Output.error(problem)
        throw ExitCode.validationFailure
    }
}
