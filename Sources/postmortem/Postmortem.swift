import ArgumentParser
import Glibc

@main
struct Postmortem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postmortem",
        abstract: "Symbolicate addresses, crash logs and dumped objects on Linux.",
        version: "0.1.0",
        subcommands: [ResolveCommand.self, InfoCommand.self, ImagesCommand.self, SymbolicateCommand.self, GroupCommand.self, POCommand.self, CacheCommand.self, ServeCommand.self]
    )

    /// Runs the command line. A `resolve` of known options and addresses, the call scripts make most, and
    /// `--version` are read without ArgumentParser, whose reflection over the command tree costs more than a lookup
    /// with a warm index cache (see ``ResolveRequest/init(commandLine:)``); everything else goes through it.
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.elementsEqual(["--version"]) {
            Output.line(configuration.version)
            return
        }
        guard let request = ResolveRequest(commandLine: arguments) else { return main(nil) }
        do {
            try request.run()
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
