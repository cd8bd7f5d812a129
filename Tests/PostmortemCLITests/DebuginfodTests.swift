import Foundation
import TestSupport
import Testing

/// Debug files and binaries fetched from debuginfod: Debian's real server (elfutils) on a loopback port, serving the
/// samples' unstripped binaries, while the logs lie beside copies stripped of their DWARF (or beside nothing). Every
/// answer is checked against the same log symbolicated beside the unstripped binaries, which the other suites check
/// against llvm-symbolizer and the Swift runtime.
@Suite("debuginfod", .serialized)
struct DebuginfodTests {
    /// The logs and the binaries that resolve them, by sample folder.
    typealias Sample = (folder: String, log: String, binaries: [String], debugFiles: [String])
    static let coredump: Sample = ("linux-c-signal", "coredump.txt", ["app", "libsens.so"], [])
    /// A glibc trace through two images of the sample (no build-ids in the log: the binaries' own are asked for).
    static let twoImages: Sample = ("linux-c-signal", "segv-lib.txt", ["app", "libsens.so"], [])
    static let swiftBacktrace: Sample = ("linux-swift-backtrace", "crash.txt", ["inventory"], [])
    static let sensors: Sample = ("linux-c-sensors", "crash.txt", ["sensors"], [".debug/sensors.debug"])
    static let samples = [coredump, twoImages, swiftBacktrace, sensors]
    /// The samples whose logs give the build-ids of their images (an executable can be fetched for them).
    static let samplesWithBuildIDs = [coredump, swiftBacktrace]

    /// A scratch folder laid out for one test: `served/` (what the server holds: the unstripped binaries and debug
    /// files), `reference/NAME/` (each log beside its unstripped binaries), `stripped/NAME/` (beside copies without
    /// DWARF, symbol tables kept) and `bare/NAME/` (the log alone).
    struct Workspace {
        let root: String
        var served: String { root + "/served" }
        var cache: String { root + "/debuginfod-cache" }
        func folder(_ kind: String, _ sample: Sample) -> String { "\(root)/\(kind)/\(sample.folder)-\(sample.log)" }

        init(_ name: String) throws {
            root = Fixtures.scratchDirectory(name)
            let manager = FileManager.default
            try manager.createDirectory(atPath: root + "/served", withIntermediateDirectories: true)
            for sample in DebuginfodTests.samples {
                let source = Paths.packageRoot.appendingPathComponent("SampleCrashes/" + sample.folder).path
                for kind in ["reference", "stripped", "bare"] {
                    let folder = folder(kind, sample)
                    try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    try manager.copyItem(atPath: source + "/" + sample.log, toPath: folder + "/" + sample.log)
                }
                for binary in sample.binaries {
                    try manager.copyItem(
                        atPath: source + "/" + binary, toPath: folder("reference", sample) + "/" + binary)
                    let stripped = folder("stripped", sample) + "/" + binary
                    let strip = try Command.run(
                        "/usr/bin/env", ["strip", "--strip-debug", "-o", stripped, source + "/" + binary])
                    #expect(strip.status == 0, "\(strip.standardError)")
                    if sample.debugFiles.isEmpty, !manager.fileExists(atPath: served + "/" + binary) {
                        try manager.copyItem(atPath: source + "/" + binary, toPath: served + "/" + binary)
                    }
                }
                for debugFile in sample.debugFiles {
                    let reference = folder("reference", sample) + "/" + debugFile
                    try manager.createDirectory(
                        atPath: (reference as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try manager.copyItem(atPath: source + "/" + debugFile, toPath: reference)
                    try manager.copyItem(
                        atPath: source + "/" + debugFile,
                        toPath: served + "/" + (debugFile as NSString).lastPathComponent)
                }
            }
        }

        /// The build-id of an ELF file, as `readelf -n` prints it.
        static func buildID(of path: String) throws -> String {
            let notes = try Fixtures.run("readelf", ["-n", path])
            let line = try #require(notes.split(separator: "\n").first { $0.contains("Build ID:") })
            return String(try #require(line.split(separator: " ").last))
        }

        func startServer() throws -> DebuginfodServer {
            let ready = try Self.buildID(of: served + "/app")
            return try DebuginfodServer(serving: served, readyBuildID: ready, scratch: root)
        }

        /// `postmortem symbolicate` of a sample's log in folder `kind`, with `servers` as `DEBUGINFOD_URLS` (none: unset).
        func symbolicate(
            _ kind: String, _ sample: Sample,
            servers: [String] = [], extra: [String] = [], environment: [String: String] = [:]
        ) throws -> (CommandResult, Duration) {
            var variables = environment
            variables["DEBUGINFOD_CACHE_PATH"] = cache
            if !servers.isEmpty { variables["DEBUGINFOD_URLS"] = servers.joined(separator: " ") }
            let started = ContinuousClock.now
            let result = try Command.run(
                Paths.postmortem, ["symbolicate", "--no-cache"] + extra + [sample.log],
                currentDirectory: URL(fileURLWithPath: folder(kind, sample)), environment: variables)
            return (result, ContinuousClock.now - started)
        }
    }

    /// Lines of a symbolicated log that name a source position: what DWARF gave (a symbol table gives none).
    static func sourceLines(_ output: String) -> [Substring] {
        output.split(separator: "\n").filter {
            $0.contains(" at ") && $0.range(of: #":\d+"#, options: .regularExpression) != nil
        }
    }

    @Test(
        "Stripped binaries get their debug files, and logs their binaries, from the server: the same answers as unstripped; then from the cache with the server stopped"
    )
    func fetchedFromServerThenCache() throws {
        let workspace = try Workspace("debuginfod-fetch")
        let server = try workspace.startServer()
        var firstOutputs: [String: String] = [:]
        for sample in Self.samples {
            let (reference, _) = try workspace.symbolicate("reference", sample)
            #expect(reference.status == 0, "\(reference.standardError)")
            #expect(
                !Self.sourceLines(reference.standardOutput).isEmpty,
                "the reference resolves \(sample.folder) to source lines")
            let (stripped, _) = try workspace.symbolicate("stripped", sample, servers: [server.url])
            #expect(stripped.status == 0, "\(stripped.standardError)")
            // Without the server, the stripped copies give fewer source lines: the test can tell the two apart.
            let (alone, _) = try workspace.symbolicate("stripped", sample, extra: ["--offline"])
            #expect(Self.sourceLines(alone.standardOutput).count < Self.sourceLines(reference.standardOutput).count)
            #expect(
                stripped.standardOutput == reference.standardOutput,
                "\(sample.folder): stripped + debuginfod = unstripped")
            for binary in sample.binaries {
                #expect(
                    !stripped.standardError.contains("\(binary): no debug information"), "\(stripped.standardError)")
            }
            firstOutputs[sample.log + sample.folder] = reference.standardOutput
        }
        // A log whose binaries are not on this machine at all: fetched by the build-ids the log gives.
        for sample in Self.samplesWithBuildIDs {
            let (bare, _) = try workspace.symbolicate("bare", sample, servers: [server.url])
            #expect(
                bare.standardOutput == firstOutputs[sample.log + sample.folder],
                "\(sample.folder): binaries fetched as executables\n\(bare.standardError)")
        }
        // What was fetched is laid out as elfutils' client lays it out, read-only.
        for binary in ["app", "libsens.so", "inventory"] {
            // (libsens.so is in segv-lib.txt's stack; app and inventory were fetched as executables too.)
            let id = try Workspace.buildID(of: workspace.served + "/" + binary)
            let path = workspace.cache + "/" + id + "/debuginfo"
            #expect(FileManager.default.fileExists(atPath: path), "\(path)")
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o400)
        }
        server.stop()
        for sample in Self.samples {
            let (again, took) = try workspace.symbolicate("stripped", sample, servers: [server.url])
            #expect(
                again.standardOutput == firstOutputs[sample.log + sample.folder],
                "\(sample.folder) from the cache\n\(again.standardError)")
            // Nothing is asked of the stopped server (it would refuse the connection).
            #expect(!again.standardError.contains("refused"), "\(again.standardError)")
            for binary in sample.binaries {
                #expect(!again.standardError.contains("\(binary): no debug information"), "\(again.standardError)")
            }
            // Read from the cache, nothing waited for: well within ten times what a run takes.
            #expect(took < .seconds(20), "took \(took)")
        }
    }

    @Test("resolve, info and images use the fetched debug file too")
    func otherCommands() throws {
        let workspace = try Workspace("debuginfod-commands")
        let server = try workspace.startServer()
        let environment = ["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": workspace.cache]
        let stripped = workspace.folder("stripped", Self.coredump) + "/app"
        let reference = workspace.folder("reference", Self.coredump) + "/app"
        for arguments in [["resolve", "-i", "--no-cache", "-o"], ["info", "line", "--no-cache", "-o"]] {
            let expected = try Command.run(Paths.postmortem, arguments + [reference, "0x1290", "0x111f"])
            let fetched = try Command.run(
                Paths.postmortem, arguments + [stripped, "0x1290", "0x111f"], environment: environment)
            #expect(expected.status == 0 && fetched.status == 0, "\(expected.standardError)\(fetched.standardError)")
            #expect(expected.standardOutput.contains("crash.c"), "\(expected.standardOutput)")
            #expect(fetched.standardOutput == expected.standardOutput, "\(arguments[0])")
        }
        let images = try Command.run(Paths.postmortem, ["images", stripped], environment: environment)
        #expect(
            images.standardOutput.contains(workspace.cache),
            "images names the downloaded debug file\n\(images.standardOutput)")
    }

    @Test(
        "A server that accepts connections and never answers costs one timeout for a whole multi-image run; symbol-table answers print, with the reason"
    )
    func silentServer() throws {
        let workspace = try Workspace("debuginfod-silent")
        let silent = try SilentServer()
        let sample = Self.twoImages
        let (result, took) = try workspace.symbolicate(
            "stripped", sample, servers: [silent.url], environment: ["DEBUGINFOD_TIMEOUT": "4"])
        #expect(result.status == 0)
        // Asked once for the whole run (a timeout is not retried, and the second image is not asked): one connection.
        #expect(silent.connections == 1, "\(silent.connections) connections to the silent server")
        #expect(took >= .seconds(4) && took < .seconds(40), "one timeout of 4 s: took \(took)")
        // The symbol tables kept by strip still name the functions.
        #expect(
            result.standardOutput.contains("(lib_entry+0x0) [0x7f9664096100]")
                && result.standardOutput.contains("./app(main+0x70)"),
            "\(result.standardOutput)")
        #expect(
            result.standardError.contains("\(silent.url) sent nothing for 4 s (DEBUGINFOD_TIMEOUT)"),
            "\(result.standardError)")
        #expect(
            result.standardError.contains("every server failed earlier in this run"),
            "the second image is not asked\n\(result.standardError)")
        // A timeout is no miss: nothing is remembered against the build.
        let id = try Workspace.buildID(of: workspace.served + "/app")
        #expect(!FileManager.default.fileExists(atPath: workspace.cache + "/" + id + "/debuginfo"))
    }

    @Test("A server whose name does not resolve costs one timeout at most, retries included")
    func unresolvableName() throws {
        let workspace = try Workspace("debuginfod-dns")
        let (result, took) = try workspace.symbolicate(
            "stripped", Self.twoImages, servers: ["http://debuginfod.postmortem.invalid"],
            environment: [
                "DEBUGINFOD_TIMEOUT": "3", "DEBUGINFOD_RETRY_LIMIT": "2",
                "DEBUGINFOD_VERBOSE": "1"
            ])
        #expect(result.status == 0)
        // One request, not retried, whose name lookup costs at most the timeout; the second image is not asked.
        let requests = result.errorLines.filter { $0.hasPrefix("debuginfod: GET ") || $0.contains("retrying") }
        #expect(requests.count == 1, "\(requests)")
        #expect(took < .seconds(30), "took \(took)")
        #expect(
            result.standardError.contains("http://debuginfod.postmortem.invalid could not be reached"),
            "\(result.standardError)")
        #expect(result.standardError.contains("every server failed earlier in this run"), "\(result.standardError)")
    }

    @Test("A silent server beside a good one: the good one's answer is taken without waiting for the other")
    func silentBesideGood() throws {
        let workspace = try Workspace("debuginfod-race")
        let server = try workspace.startServer()
        let silent = try SilentServer()
        let sample = Self.sensors
        let (reference, _) = try workspace.symbolicate("reference", sample)
        let (result, took) = try workspace.symbolicate(
            "stripped", sample, servers: [silent.url, server.url],
            environment: ["DEBUGINFOD_TIMEOUT": "60"])
        #expect(result.standardOutput == reference.standardOutput, "\(result.standardError)")
        // The silent one's 60 s timeout is not waited out.
        #expect(took < .seconds(30), "took \(took)")
    }

    @Test("A file of another build-id is not believed, from an HTTP server or a file:// one, and not kept")
    func wrongFile() throws {
        let workspace = try Workspace("debuginfod-wrong")
        let other = workspace.served + "/libsens.so"
        let liar = try OneFileServer(answering: other)
        let sample = Self.sensors
        let wanted = try Workspace.buildID(of: workspace.folder("stripped", sample) + "/sensors")
        let otherID = try Workspace.buildID(of: other)
        let (result, _) = try workspace.symbolicate("stripped", sample, servers: [liar.url])
        #expect(
            result.standardError.contains("sent a file of build-id \(otherID), not \(wanted); discarded"),
            "\(result.standardError)")
        #expect(
            Self.sourceLines(result.standardOutput).allSatisfy { !$0.contains("sensors.c") }, "\(result.standardOutput)"
        )
        #expect(!FileManager.default.fileExists(atPath: workspace.cache + "/" + wanted + "/debuginfo"))
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: workspace.cache + "/" + wanted)) ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")

        // A file:// server laid out as debuginfod's URLs: buildid/ID/debuginfo, holding the wrong file, then the right one.
        let tree = workspace.root + "/file-server/buildid/" + wanted
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: other, toPath: tree + "/debuginfo")
        let (fromFile, _) = try workspace.symbolicate(
            "stripped", sample, servers: ["file://" + workspace.root + "/file-server"])
        #expect(fromFile.standardError.contains("not \(wanted); discarded"), "\(fromFile.standardError)")
        try FileManager.default.removeItem(atPath: tree + "/debuginfo")
        try FileManager.default.copyItem(atPath: workspace.served + "/sensors.debug", toPath: tree + "/debuginfo")
        let (reference, _) = try workspace.symbolicate("reference", sample)
        let (right, _) = try workspace.symbolicate(
            "stripped", sample, servers: ["file://" + workspace.root + "/file-server"])
        #expect(right.standardOutput == reference.standardOutput, "\(right.standardError)")
    }

    @Test("A download cut short by Ctrl-C leaves nothing in the cache, neither the file nor its temporary")
    func interruptedDownload() throws {
        let workspace = try Workspace("debuginfod-interrupted")
        let stalling = try OneFileServer(answering: workspace.served + "/sensors.debug", stallingAfter: 4096)
        let sample = Self.sensors
        let wanted = try Workspace.buildID(of: workspace.folder("stripped", sample) + "/sensors")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.postmortem)
        process.arguments = ["symbolicate", "--no-cache", sample.log]
        process.currentDirectoryURL = URL(fileURLWithPath: workspace.folder("stripped", sample))
        var environment = ProcessInfo.processInfo.environment
        environment["DEBUGINFOD_URLS"] = stalling.url
        environment["DEBUGINFOD_CACHE_PATH"] = workspace.cache
        environment["DEBUGINFOD_TIMEOUT"] = "60"
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let folder = workspace.cache + "/" + wanted
        var temporaries: [String] = []
        let deadline = Date().addingTimeInterval(20)
        while temporaries.isEmpty, Date() < deadline {
            usleep(50_000)
            temporaries = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
                $0.contains(".tmp-")
            }
        }
        #expect(!temporaries.isEmpty, "the download was under way, in a temporary file")
        #expect(
            !FileManager.default.fileExists(atPath: folder + "/debuginfo"),
            "nothing at the file's place before it is complete")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGINT)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        #expect(left.isEmpty, "\(left)")
    }

    @Test("DEBUGINFOD_MAXSIZE refuses a larger file, DEBUGINFOD_MAXTIME ends a download that takes too long")
    func limits() throws {
        let workspace = try Workspace("debuginfod-limits")
        let sample = Self.sensors
        let file = workspace.served + "/sensors.debug"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        let whole = try OneFileServer(answering: file)
        let (tooLarge, _) = try workspace.symbolicate(
            "stripped", sample, servers: [whole.url], environment: ["DEBUGINFOD_MAXSIZE": "1000"])
        #expect(
            tooLarge.standardError.contains("offers \(size) bytes, more than the 1000 allowed (DEBUGINFOD_MAXSIZE)"),
            "\(tooLarge.standardError)")
        let stalling = try OneFileServer(answering: file, stallingAfter: 4096)
        let (slow, took) = try workspace.symbolicate(
            "stripped", sample, servers: [stalling.url],
            environment: ["DEBUGINFOD_MAXTIME": "2", "DEBUGINFOD_TIMEOUT": "60"])
        #expect(slow.standardError.contains("took longer than 2 s (DEBUGINFOD_MAXTIME)"), "\(slow.standardError)")
        // Ended at 2 s, not at the 60 s a stalled download would take to time out.
        #expect(took < .seconds(20), "took \(took)")
        let wanted = try Workspace.buildID(of: workspace.folder("stripped", sample) + "/sensors")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: workspace.cache + "/" + wanted)) ?? []).isEmpty)
    }

    @Test(
        "A miss is remembered as elfutils remembers it (a file with no permissions), and the server not asked again while it holds"
    )
    func missRemembered() throws {
        let workspace = try Workspace("debuginfod-miss")
        // The server has app but not libsens.so.
        try FileManager.default.removeItem(atPath: workspace.served + "/libsens.so")
        let server = try workspace.startServer()
        let sample = Self.twoImages
        let lib = try Workspace.buildID(of: workspace.folder("stripped", sample) + "/libsens.so")
        let (first, _) = try workspace.symbolicate("stripped", sample, servers: [server.url])
        #expect(first.standardError.contains("404"), "\(first.standardError)")
        let miss = workspace.cache + "/" + lib + "/debuginfo"
        let attributes = try FileManager.default.attributesOfItem(atPath: miss)
        #expect((attributes[.posixPermissions] as? Int) == 0)
        #expect((attributes[.size] as? Int) == 0)
        // While the miss holds, a silent server in the list costs nothing for that build.
        let silent = try SilentServer()
        let (second, _) = try workspace.symbolicate(
            "stripped", sample, servers: [silent.url],
            environment: ["DEBUGINFOD_TIMEOUT": "10"])
        #expect(second.standardError.contains("no server had it"), "\(second.standardError)")
        #expect(silent.connections == 0, "the silent server was asked")
    }

    @Test("--offline asks no server; without DEBUGINFOD_URLS nothing is asked or cached")
    func offline() throws {
        let workspace = try Workspace("debuginfod-offline")
        let silent = try SilentServer()
        let sample = Self.twoImages
        let (offline, _) = try workspace.symbolicate(
            "stripped", sample, servers: [silent.url], extra: ["--offline"],
            environment: ["DEBUGINFOD_TIMEOUT": "10"])
        #expect(silent.connections == 0, "the silent server was asked")
        #expect(offline.standardError.contains("not in the cache, and offline"), "\(offline.standardError)")
        let (unset, _) = try workspace.symbolicate("stripped", sample)
        #expect(!unset.standardError.contains("debuginfod"), "\(unset.standardError)")
        #expect(!FileManager.default.fileExists(atPath: workspace.cache))
    }

    @Test(
        "--source-context reads a source file missing here from the server, by the build-id of the debug file that names it"
    )
    func sources() throws {
        let root = Fixtures.scratchDirectory("debuginfod-sources")
        let manager = FileManager.default
        for folder in ["hidden", "src", "served", "stripped"] {
            try manager.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        // The debug information names ROOT/src/gauge.c, which only the server sees (ROOT/hidden mounted there).
        let source = """
            #include <stdio.h>
            int gauge(int reading) {
                return reading * 3; /* the line the server shows */
            }
            int main(int argc, char **argv) { printf("%d\\n", gauge(argc)); return 0; }
            """
        try source.write(toFile: root + "/hidden/gauge.c", atomically: true, encoding: .utf8)
        let compile = try Command.run(
            "/usr/bin/env",
            [
                "gcc", "-g", "-O0", "-fdebug-prefix-map=\(root)/hidden=\(root)/src",
                "-o", root + "/served/gauge", root + "/hidden/gauge.c"
            ])
        try #require(compile.status == 0, "\(compile.standardError)")
        let strip = try Command.run(
            "/usr/bin/env", ["strip", "--strip-debug", "-o", root + "/stripped/gauge", root + "/served/gauge"])
        try #require(strip.status == 0, "\(strip.standardError)")
        let id = try Workspace.buildID(of: root + "/served/gauge")
        let server = try DebuginfodServer(
            serving: root + "/served", readyBuildID: id, scratch: root,
            bindMount: (root + "/hidden", root + "/src"))
        let address = try #require(try SignalCrashTests.address(of: "gauge", in: root + "/served/gauge"))
        let result = try Command.run(
            Paths.postmortem,
            [
                "resolve", "--no-cache", "--source-context", "1", "-o", root + "/stripped/gauge",
                "0x" + String(address + 8, radix: 16)
            ],
            environment: ["DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": root + "/cache"])
        #expect(
            result.standardOutput.contains("the line the server shows"),
            "\(result.standardOutput)\(result.standardError)")
        let cached =
            root + "/cache/" + id + "/source" + (root + "/src/gauge.c").replacingOccurrences(of: "/", with: "##")
        #expect(manager.fileExists(atPath: cached), "\(cached)")
        #expect(!manager.fileExists(atPath: root + "/src/gauge.c"), "the client cannot read the source itself")
    }

    @Test(
        "An https server trusted through SSL_CERT_FILE gives the answers of the unstripped build; by the system's authorities alone, its certificate is rejected and said"
    )
    func secureServer() throws {
        let workspace = try Workspace("debuginfod-https")
        let sample = Self.sensors
        let wanted = try Workspace.buildID(of: workspace.folder("stripped", sample) + "/sensors")
        // A debuginfod tree (buildid/ID/debuginfo) served as files over TLS, with a certificate of a throwaway authority.
        let tree = workspace.root + "/https-tree"
        try FileManager.default.createDirectory(atPath: tree + "/buildid/" + wanted, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: workspace.served + "/sensors.debug", toPath: tree + "/buildid/\(wanted)/debuginfo")
        let certificates = try TestCertificates(in: workspace.root + "/pki")
        let server = try TestHTTPServer(serving: tree, tls: certificates)
        let (reference, _) = try workspace.symbolicate("reference", sample)
        let (trusted, _) = try workspace.symbolicate(
            "stripped", sample, servers: ["https://localhost:\(server.port)"],
            environment: ["SSL_CERT_FILE": certificates.authority])
        #expect(trusted.standardOutput == reference.standardOutput, "\(trusted.standardError)")
        #expect(FileManager.default.fileExists(atPath: workspace.cache + "/" + wanted + "/debuginfo"))

        try FileManager.default.removeItem(atPath: workspace.cache)
        let (untrusted, _) = try workspace.symbolicate("stripped", sample, servers: [server.url])
        #expect(
            untrusted.standardError.contains(
                "\(server.url) could not be trusted: its TLS certificate was rejected (unable to get local issuer certificate)"
            ), "\(untrusted.standardError)")
        #expect(
            Self.sourceLines(untrusted.standardOutput).allSatisfy { !$0.contains("sensors.c") },
            "\(untrusted.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: workspace.cache + "/" + wanted + "/debuginfo"))
    }

    @Test("URLs of other schemes are refused with a reason")
    func otherSchemes() throws {
        let workspace = try Workspace("debuginfod-schemes")
        let (result, _) = try workspace.symbolicate("stripped", Self.sensors, servers: ["ftp://127.0.0.1/x"])
        #expect(
            result.standardError.contains("DEBUGINFOD_URLS: 'ftp://127.0.0.1/x' is not an http, https or file URL"),
            "\(result.standardError)")
    }
}
