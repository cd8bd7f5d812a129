import ArgumentParser
import CommandLineOptions
import Logging

/// `postmortem-server`: the symbolication server `postmortem serve` hands over to (a program of its own, so that the
/// command line does not carry the server's libraries; see docs/ARCHITECTURE.md, "The server").
@main
struct PostmortemServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postmortem-server",
        abstract:
            "Serve symbolication over HTTP: Mozilla's Symbolication API v5, crash logs posted whole, /health and /metrics."
    )

    @OptionGroup var options: ServeOptions

    func run() async throws {
        // Standard output carries only the line that says where the server listens; the log goes to standard error.
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let server = SymbolicationServer(options: options, logger: Logger(label: "postmortem-server"))
        try await server.run()
    }
}
