import ArgumentParser

@main
struct Postmortem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postmortem",
        abstract: "Symbolicate addresses, crash logs and dumped objects on Linux.",
        version: "0.1.0",
        subcommands: [ResolveCommand.self, InfoCommand.self, ImagesCommand.self, SymbolicateCommand.self, POCommand.self, CacheCommand.self]
    )
}
