import ArgumentParser

/// ArgumentParser's zsh completion script, like its bash and fish scripts, offers each subcommand by its name only:
/// `postmortem atos` is neither offered nor completed. This adds each alias to the root's list of subcommands (with
/// its command's description) and to the root's dispatch, where it completes as its command does.
enum ZshCompletionAliases {
    /// `script` (ArgumentParser's zsh script for the command `configuration` describes) with the aliases of its
    /// subcommands added.
    static func adding(to script: String, of configuration: CommandConfiguration) -> String {
        let root = configuration.commandName ?? "postmortem"
        let aliases = BashCompletionAliases.aliases(of: configuration)
        guard !aliases.isEmpty else { return script }
        var lines: [String] = []
        var inRootFunction = false
        for line in script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == "_\(root)() {" { inRootFunction = true } else if line == "}" { inRootFunction = false }
            lines.append(line)
            guard inRootFunction else { continue }
            // An entry of the root's subcommand list: `            'resolve:Resolve addresses …'`.
            for (alias, command) in aliases where line.hasPrefix("            '\(command):") {
                lines.append("            '\(alias):" + line.dropFirst("            '\(command):".count))
            }
            // The root's dispatch on the subcommand: its cases follow this line.
            if line == "        case \"${words[1]}\" in" {
                for (alias, command) in aliases {
                    lines += ["        \(alias))", "            \"_\(root)_\(command)\" && ret=0", "            ;;"]
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
