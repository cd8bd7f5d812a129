import ArgumentParser
import CommandLineOptions
import HTTPServing

/// `postmortem-server`: the symbolication server `postmortem serve` hands over to (a program of its own, so that the
/// command line does not carry the server's libraries; see docs/ARCHITECTURE.md, "The server").
@main
struct PostmortemServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postmortem-server",
        abstract:
            "Serve symbolication over HTTP: Mozilla's Symbolication API v5, crash logs posted whole, /health and /metrics."
    )

    @OptionGroup var options: ServeOptions

    func run() throws {
        // Before any thread starts: SIGTERM and SIGINT are read by the accept loop, for a graceful stop.
        StopSignals.block()
        let log = ServerLog()
        let server = SymbolicationServer(options: options, log: log)
        do { try server.run() } catch {
            log.error("\(error)")
            throw ExitCode.failure
        }
    }
}
