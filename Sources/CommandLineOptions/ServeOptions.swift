import ArgumentParser

/// The options of `postmortem serve`, which the `postmortem-server` executable takes too: the command hands them on.
package struct ServeOptions: ParsableArguments {
    /// The address the server listens on.
    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    package var host = "127.0.0.1"

    /// The port the server listens on; 0 for a free one.
    @Option(help: "The port to listen on; 0 picks a free one (the first line on standard output says which).")
    package var port = 8080

    /// Folders searched for binaries and debug files (listed at start, and again when a request names a module not found).
    @OptionGroup package var debugPathOption: DebugPathOption

    /// Breakpad symbol stores served at `/NAME/DEBUGID/NAME.sym`; the first receives written and uploaded files.
    @Option(
        name: CommandOption.symbols.names,
        help:
            "A Breakpad symbol store (NAME/DEBUGID/NAME.sym) to serve at GET /NAME/DEBUGID/NAME.sym; may be repeated. A file missing from all is written from a binary below -d into the first, as are files sent to POST /upload.",
        completion: .directory)
    package var symbolStores: [String] = []

    /// The largest request body, as written (`32M`); ``maximumBodyBytes`` reads it.
    @Option(
        name: .customLong("max-body-size"),
        help: "The largest request body, in bytes (K, M and G suffixes allowed); larger ones get 413.")
    package var maximumBodySize = "32M"

    /// The most frames one Symbolication API request may hold.
    @Option(
        name: CommandOption.maxFrames.names, help: "The most frames of all the jobs of one Symbolication API request.")
    package var maximumFrames = 100_000

    /// Seconds a request may take.
    @Option(
        name: .customLong("timeout"),
        help: "Seconds a request may take, reading its body included; past it, it gets 504.")
    package var timeout = 30

    /// The most images kept open between requests.
    @Option(
        name: .customLong("max-open-images"),
        help: "The most images kept open between requests; the least recently used are closed first.")
    package var maximumOpenImages = 64

    /// Whether the index cache is off.
    @OptionGroup package var indexCacheOption: IndexCacheOption

    /// Whether debuginfod is not asked.
    @OptionGroup package var offlineOption: OfflineOption

    /// Folders searched for binaries and debug files.
    package var debugPaths: [String] { debugPathOption.debugPaths }

    /// Whether the index cache is off.
    package var noCache: Bool { indexCacheOption.noCache }

    /// Whether debuginfod is not asked.
    package var offline: Bool { offlineOption.offline }

    /// The defaults, for swift-argument-parser to fill in.
    package init() {}

    /// The largest body in bytes, or `nil` when ``maximumBodySize`` is not a size.
    package var maximumBodyBytes: Int? {
        let text = maximumBodySize.uppercased()
        let scales: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let scale = text.last.flatMap { scales[$0] } ?? 1
        let digits = scale == 1 ? Substring(text) : text.dropLast()
        guard let value = Int(digits), value > 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow ? nil : bytes
    }

    /// Refuses values out of range, in one line each (swift-argument-parser calls it after parsing).
    package func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port): a port is 0 to 65535") }
        guard maximumBodyBytes != nil else {
            throw ValidationError(
                "--max-body-size \(maximumBodySize): a size is a positive number of bytes, with K, M or G after it or not"
            )
        }
        guard maximumFrames > 0 else { throw ValidationError("--max-frames \(maximumFrames): must be at least 1") }
        guard timeout > 0 else { throw ValidationError("--timeout \(timeout): must be at least 1 second") }
        guard maximumOpenImages > 0 else {
            throw ValidationError("--max-open-images \(maximumOpenImages): must be at least 1")
        }
    }

    /// The options as a command line that gives them back.
    package var commandLine: [String] {
        var arguments = ["--host", host, "--port", "\(port)"]
        for path in debugPaths { arguments += ["-d", path] }
        for store in symbolStores { arguments += ["--symbols", store] }
        arguments += [
            "--max-body-size", maximumBodySize, "--max-frames", "\(maximumFrames)", "--timeout", "\(timeout)",
            "--max-open-images", "\(maximumOpenImages)"
        ]
        if noCache { arguments.append("--no-cache") }
        if offline { arguments.append("--offline") }
        return arguments
    }
}
