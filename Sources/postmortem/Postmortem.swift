import ArgumentParser
import Glibc

@main
struct Postmortem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postmortem",
        abstract: "Symbolicate addresses, crash logs and dumped objects on Linux.",
        version: "0.1.0",
        subcommands: [
            ResolveCommand.self, InfoCommand.self, ImagesCommand.self, SymbolicateCommand.self, StackCommand.self,
            Core2MDCommand.self, DumpSymsCommand.self, GroupCommand.self, POCommand.self, CacheCommand.self,
            ServeCommand.self
        ]
    )

    /// Runs the command line. A `resolve` of known options and addresses, the call scripts make most, a `symbolicate`
    /// of known options and logs, and `--version` are read without ArgumentParser, whose reflection over the command
    /// tree costs more than a lookup with a warm index cache (see ``ResolveRequest/init(commandLine:)`` and
    /// ``SymbolicateRequest/init(commandLine:)``); everything else goes through it.
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.elementsEqual(["--version"]) {
            Output.line(configuration.version)
            return
        }
        if arguments.elementsEqual(["--generate-completion-script", "bash"]) {
            Output.line(BashCompletionAliases.adding(to: completionScript(for: .bash), of: configuration))
            return
        }
        if arguments.elementsEqual(["--generate-completion-script", "zsh"]) {
            Output.line(ZshCompletionAliases.adding(to: completionScript(for: .zsh), of: configuration))
            return
        }
        if arguments.elementsEqual(["--generate-completion-script", "fish"]) {
            Output.line(FishCompletionAliases.adding(to: completionScript(for: .fish), of: configuration))
            return
        }
        if let request = SymbolicateRequest(commandLine: arguments) { return runRead(request.run) }
        if let request = ResolveRequest(commandLine: arguments) { return runRead { try request.run() } }
        runParsed(Array(arguments))
    }

    /// Runs a request read without ArgumentParser; its errors end the process as ArgumentParser ends it for the others.
    private static func runRead(_ run: () throws -> Void) {
        do {
            try run()
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch {
            exit(withError: error)
        }
    }

    /// Runs the command ArgumentParser reads from `arguments`. A command line it cannot read is one line on stderr,
    /// as every other error is, naming the help to read, and exit status 64; help and `--version` are printed as
    /// ArgumentParser prints them.
    private static func runParsed(_ arguments: [String]) {
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            let code = exitCode(for: error)
            guard code != .success else { exit(withError: error) }
            let path = commandPath(arguments)
            if path == configuration.commandName, let first = arguments.first, !first.hasPrefix("-") {
                let names = configuration.subcommands.flatMap {
                    [$0.configuration.commandName ?? ""] + $0.configuration.aliases
                }
                Output.error("'\(first)' is not a command (\(names.joined(separator: ", "))); see '\(path) --help'")
            } else {
                Output.error("\(UsageProblem.sentence(message(for: error))) (see '\(path) --help')")
            }
            Glibc.exit(code.rawValue)
        }
        do {
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// The command `arguments` name, as typed before its options: `postmortem info symbol`.
    static func commandPath(_ arguments: [String]) -> String {
        var path = [configuration.commandName ?? "postmortem"]
        var commands = configuration.subcommands
        for argument in arguments {
            guard
                let next = commands.first(where: {
                    $0.configuration.commandName == argument || $0.configuration.aliases.contains(argument)
                })
            else { break }
            path.append(argument)
            commands = next.configuration.subcommands
        }
        return path.joined(separator: " ")
    }
}
