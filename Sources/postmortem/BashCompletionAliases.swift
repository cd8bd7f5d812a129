import ArgumentParser

/// ArgumentParser's bash completion script offers each subcommand by its name only: a command's aliases (`atos` for
/// `resolve`) are neither offered nor completed. This adds them, each completing as its command does.
enum BashCompletionAliases {
    /// `script` (ArgumentParser's bash script for the command `configuration` describes) with the aliases of its
    /// subcommands added.
    static func adding(to script: String, of configuration: CommandConfiguration) -> String {
        let root = configuration.commandName ?? "postmortem"
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        let aliases = Self.aliases(of: configuration)
        guard !aliases.isEmpty else { return script }
        var lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for index in lines.indices {
            let trimmed = Substring(lines[index]).drop { $0 == " " }
            // The case that sends each subcommand to its function: `resolve|info|…|help)`.
            if trimmed.hasSuffix(")"),
                Set(trimmed.dropLast().split(separator: "|").map(String.init)).isSuperset(of: names)
            {
                for (alias, name) in aliases {
                    lines[index] = lines[index].replacingFirst("\(name)|", with: "\(name)|\(alias)|")
                }
            }
            // The words offered for the subcommand: `compgen -W 'resolve info … help'`.
            if trimmed.hasPrefix("COMPREPLY+=($(compgen -W '"),
                names.allSatisfy({ trimmed.contains(" \($0)") || trimmed.contains("'\($0)") })
            {
                for (alias, name) in aliases {
                    lines[index] = lines[index].replacingFirst("'\(name) ", with: "'\(name) \(alias) ")
                }
            }
        }
        let functions = aliases.map { "_\(root)_\($0.alias)() {\n    _\(root)_\($0.command)\n}\n" }
        return lines.joined(separator: "\n") + "\n" + functions.joined(separator: "\n")
    }
}

extension BashCompletionAliases {
    /// Each alias of `configuration`'s subcommands, with the name of the command it stands for (both scripts add
    /// the same aliases).
    static func aliases(of configuration: CommandConfiguration) -> [(alias: String, command: String)] {
        configuration.subcommands.flatMap { subcommand -> [(alias: String, command: String)] in
            let subconfiguration = subcommand.configuration
            guard let name = subconfiguration.commandName else { return [] }
            return subconfiguration.aliases.map { ($0, name) }
        }
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced by `replacement`.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        var start = startIndex
        while start < endIndex {
            if self[start...].hasPrefix(target) {
                return String(self[..<start]) + replacement + String(self[index(start, offsetBy: target.count)...])
            }
            start = index(after: start)
        }
        return self
    }
}
