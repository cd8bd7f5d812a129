import ObjectFiles
import PostmortemCore

/// The client's configuration, read from elfutils' environment variables so that one setting serves gdb, elfutils'
/// tools and Postmortem alike (`debuginfod-client-config(7)`).
package struct DebuginfodSettings: Hashable, Sendable {
    /// The servers of `DEBUGINFOD_URLS`, in order, each once; URLs of other schemes are left out (see ``problems``).
    package var servers: [DebuginfodServer]
    /// The download cache: `DEBUGINFOD_CACHE_PATH`, else `~/.debuginfod_client_cache` when it exists, else
    /// `$XDG_CACHE_HOME/debuginfod_client`, else `~/.cache/debuginfod_client`; `nil` with none of them set.
    package var cacheDirectory: String?
    /// `DEBUGINFOD_TIMEOUT`: seconds a server may take to connect or stay silent before it is given up for the run;
    /// `nil` for none (a value of 0 or less).
    package var timeout: Int?
    /// `DEBUGINFOD_MAXTIME`: seconds one download may take in all; `nil` for no limit.
    package var maximumTime: Int?
    /// `DEBUGINFOD_MAXSIZE`: the largest file fetched, in bytes (sent to servers too, as elfutils' client sends it).
    package var maximumSize: Int?
    /// `DEBUGINFOD_RETRY_LIMIT`: how many times a request that failed (not one that timed out) is sent again.
    package var retryLimit: Int
    /// `DEBUGINFOD_VERBOSE`: each request and its answer on standard error.
    package var verbose: Bool
    /// `DEBUGINFOD_PROGRESS`: progress on standard error even when it is not a terminal.
    package var forcesProgress: Bool
    /// What in the environment was not understood, one line each.
    package var problems: [String]

    /// How long a server may stay silent when `DEBUGINFOD_TIMEOUT` is unset. Shorter than elfutils' 90 s: a run asks
    /// a silent server once, and then goes on without it.
    package static let defaultTimeout = 15
    /// The largest file fetched when `DEBUGINFOD_MAXSIZE` is unset: every download is bounded.
    package static let defaultMaximumSize = 4 << 30

    /// The settings of `environment` (the process's, by default); `nil` when `DEBUGINFOD_URLS` is unset or empty.
    package init?(environment: [String: String]) {
        let urls = (environment["DEBUGINFOD_URLS"] ?? "").split(whereSeparator: {
            $0 == " " || $0 == "\t" || $0 == "\n"
        })
        guard !urls.isEmpty else { return nil }
        var problems: [String] = []
        var servers: [DebuginfodServer] = []
        for url in urls {
            guard let server = DebuginfodServer(url: String(url)) else {
                problems.append("DEBUGINFOD_URLS: '\(url)' is not an http, https or file URL; not used")
                continue
            }
            if !servers.contains(server) { servers.append(server) }
        }
        self.servers = servers
        func number(_ name: String) -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text.filter { $0 != " " }) else {
                problems.append("\(name): '\(text)' is not a whole number; ignored")
                return nil
            }
            return value
        }
        let timeout = number("DEBUGINFOD_TIMEOUT") ?? Self.defaultTimeout
        self.timeout = timeout > 0 ? timeout : nil
        maximumTime = number("DEBUGINFOD_MAXTIME").flatMap { $0 > 0 ? $0 : nil }
        maximumSize = number("DEBUGINFOD_MAXSIZE").flatMap { $0 > 0 ? $0 : nil }
        retryLimit = max(0, number("DEBUGINFOD_RETRY_LIMIT") ?? 2)
        verbose = Self.isSet(environment["DEBUGINFOD_VERBOSE"])
        forcesProgress = Self.isSet(environment["DEBUGINFOD_PROGRESS"])
        cacheDirectory = Self.cacheDirectory(environment: environment)
        self.problems = problems
    }

    /// The settings of this process's environment.
    package static func fromProcessEnvironment() -> DebuginfodSettings? {
        var environment: [String: String] = [:]
        for name in [
            "DEBUGINFOD_URLS", "DEBUGINFOD_CACHE_PATH", "DEBUGINFOD_TIMEOUT", "DEBUGINFOD_MAXTIME",
            "DEBUGINFOD_MAXSIZE",
            "DEBUGINFOD_RETRY_LIMIT", "DEBUGINFOD_VERBOSE", "DEBUGINFOD_PROGRESS", "XDG_CACHE_HOME", "HOME"
        ] {
            environment[name] = FileSystem.environment(name)
        }
        return DebuginfodSettings(environment: environment)
    }

    /// The largest file fetched.
    package var sizeLimit: Int { maximumSize ?? Self.defaultMaximumSize }

    private static func isSet(_ value: String?) -> Bool {
        guard let value, !value.isEmpty else { return false }
        return value != "0"
    }

    private static func cacheDirectory(environment: [String: String]) -> String? {
        if let path = environment["DEBUGINFOD_CACHE_PATH"], !path.isEmpty { return path }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        if let home, FileSystem.isDirectory(home + "/.debuginfod_client_cache") {
            return home + "/.debuginfod_client_cache"
        }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/debuginfod_client" }
        return home.map { $0 + "/.cache/debuginfod_client" }
    }
}

/// One server of `DEBUGINFOD_URLS`.
package struct DebuginfodServer: Hashable, Sendable, CustomStringConvertible {
    /// The URL as given, without trailing slashes.
    package var url: String
    /// For a `file://` URL, the directory that stands for the server (its `buildid/…` tree).
    package var localDirectory: String?

    /// `nil` unless `url` is an `http://`, `https://` or `file://` URL.
    package init?(url: String) {
        var trimmed = url
        while trimmed.hasSuffix("/"), trimmed.count > 1 { trimmed.removeLast() }
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("file://") {
            let path = String(trimmed.dropFirst("file://".count))
            guard path.hasPrefix("/") else { return nil }
            localDirectory = path
        } else {
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return nil }
            guard trimmed.split(separator: "/", omittingEmptySubsequences: true).count >= 2 else { return nil }
            localDirectory = nil
        }
        self.url = trimmed
    }

    /// The server's URL, as given.
    package var description: String { url }

    /// The URL of `artifact` of `buildID` on this server (`…/buildid/HEX/debuginfo`); a source path is %-escaped
    /// but for its slashes, as elfutils' client escapes it.
    func url(of artifact: RemoteArtifact, buildID: BuildID) -> String {
        var url = self.url + "/buildid/" + buildID.hex + "/" + artifact.kind
        if case .source(let path) = artifact { url += "/" + Self.escaped(path.drop { $0 == "/" }) }
        return url
    }

    /// `text` with every byte outside RFC 3986's unreserved characters and `/` written as `%XX`.
    static func escaped(_ text: Substring) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                escaped += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return escaped
    }
}
