/// The pieces of a command line that the commands' own readers (``ResolveRequest/init(commandLine:)``,
/// ``SymbolicateRequest/init(commandLine:)``) take apart the way ArgumentParser does, so that both read an option alike.
enum CommandLineTokens {
    /// An option as typed: its spelling, and the value written after `=` on a long name (`--debug-path=dbg`).
    static func option(_ argument: String) -> (name: String, attached: String?) {
        guard argument.utf8.starts(with: "--".utf8), let equals = argument.utf8.firstIndex(of: UInt8(ascii: "=")) else {
            return (argument, nil)
        }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The value of an option that takes one: the attached one, else the next argument (taken from `rest`); `nil` when
    /// there is none, it is empty or it starts with `-` (ArgumentParser words an error for each).
    static func value(attached: String?, rest: inout ArraySlice<String>) -> String? {
        guard let value = attached ?? rest.popFirst(), let first = value.utf8.first, first != UInt8(ascii: "-") else {
            return nil
        }
        return value
    }
}
