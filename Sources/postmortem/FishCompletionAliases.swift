import ArgumentParser

/// ArgumentParser's fish completion script, like its bash script, offers each subcommand by its name only: a
/// command's aliases (`atos` for `resolve`) are neither offered nor completed. This adds them, each completing as its
/// command does (the alias is read as the command's name before its options are parsed).
enum FishCompletionAliases {
    /// `script` (ArgumentParser's fish script for the command `configuration` describes) with the aliases of its
    /// subcommands added.
    static func adding(to script: String, of configuration: CommandConfiguration) -> String {
        let root = configuration.commandName ?? "postmortem"
        let aliases = Dictionary(grouping: BashCompletionAliases.aliases(of: configuration), by: \.command).mapValues {
            $0.map(\.alias)
        }
        guard !aliases.isEmpty else { return script }
        // The line that offers a subcommand of the root: `complete -c 'ROOT' -n '…positional "ROOT" -eq 1' -fa 'NAME' -d …`.
        let offering =
            "complete -c '\(root)' -n '__\(root)_should_offer_completions_for_positional \"\(root)\" -eq 1' -fa '"
        var lines: [String] = []
        for line in script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            // The root's subcommands are matched at the first depth of its token parser: `        case 'NAME'`.
            if line.hasPrefix("        case '"), !line.hasPrefix("         "),
                let name = Self.quoted(line.dropFirst("        case ".count)),
                let names = aliases[name]
            {
                lines.append(line + names.map { " '\($0)'" }.joined())
                lines.append("            set unparsed_tokens[1] \(name)")
                continue
            }
            lines.append(line)
            if line.hasPrefix(offering),
                let name = Self.quoted(line.dropFirst(offering.count - 1).prefix { $0 != " " }),
                let names = aliases[name]
            {
                // The same line, the alias in the name's place (its description kept).
                let rest = line.dropFirst(offering.count + name.count)
                for alias in names { lines.append(offering + alias + rest) }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The text of `'NAME'`, when `text` is exactly that.
    private static func quoted(_ text: Substring) -> String? {
        guard text.count >= 2, text.first == "'", text.last == "'" else { return nil }
        return String(text.dropFirst().dropLast())
    }
}
