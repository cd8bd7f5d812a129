import ArgumentParser
import CommandLineOptions
import ObjectFiles

/// `postmortem serve`: hands over to `postmortem-server`, installed beside `postmortem`. The server is a program of
/// its own so that its HTTP libraries cost the other commands nothing at start-up (docs/ARCHITECTURE.md, "The server").
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "Serve symbolication over HTTP: Mozilla's Symbolication API v5, crash logs posted whole, /health and /metrics.",
        discussion: """
            POST /symbolicate/v5 takes {"jobs": [{"memoryMap": [[debugName, debugId], …], "stacks": [[[moduleIndex, \
            moduleOffset], …]]}]} and finds modules by name and Breakpad debug id below the -d folders. POST /symbolicate \
            takes a crash log and answers as `symbolicate --json` does (as `symbolicate` does with Accept: text/plain). \
            With --symbols DIR it is a Breakpad symbol server: GET /NAME/DEBUGID/NAME.sym (written from a binary below -d \
            when missing) and POST /upload. SIGTERM stops it gracefully.
            """)

    @OptionGroup var options: ServeOptions

    func run() throws {
        guard let server = ProgramHandover.sibling(named: "postmortem-server") else {
            Output.error("postmortem-server is not installed beside postmortem (`make install` installs both)")
            throw ExitCode.failure
        }
        Output.error(
            "could not start \(server): \(ProgramHandover.replace(with: server, arguments: options.commandLine))")
        throw ExitCode.failure
    }
}
