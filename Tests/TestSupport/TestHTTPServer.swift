import Foundation

/// Tests/Fixtures/http-test-server.py on a loopback port of its own choosing, serving a folder, for one test: it
/// exits when the test lets go of it (its standard input closes).
public final class TestHTTPServer {
    /// `http://127.0.0.1:PORT` (`https://` with TLS, `[::1]` for IPv6).
    public let url: String
    /// The port it listens on.
    public let port: Int
    private let process: Process
    private let input: Pipe

    /// Starts the server over `folder`, with TLS by `tls`'s certificate when given, on `::1` with `ipv6`.
    public init(serving folder: String, tls: TestCertificates? = nil, ipv6: Bool = false) throws {
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/http-test-server.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [script, folder] + (ipv6 ? ["--ipv6"] : [])
            + (tls.map { ["--tls", $0.serverCertificate, $0.serverKey] } ?? [])
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // The server prints its port once it listens: a readiness line, not a wait.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            guard !more.isEmpty else { throw SetupFailure("the test HTTP server exited before it listened") }
            line.append(more)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).prefix { $0.isNumber }) else {
            throw SetupFailure("the test HTTP server said '\(text)'")
        }
        self.port = port
        url = "\(tls == nil ? "http" : "https")://\(ipv6 ? "[::1]" : "127.0.0.1"):\(port)"
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// A test's failure to set up, with what went wrong.
public struct SetupFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}

/// A throwaway certificate authority and a server certificate it signed (for `localhost` and 127.0.0.1, or the
/// names given), made with the openssl command in a scratch folder.
public struct TestCertificates: Sendable {
    /// The authority's certificate (PEM), for a client to trust.
    public let authority: String
    /// The server's certificate (PEM), signed by the authority.
    public let serverCertificate: String
    /// The server certificate's private key (PEM).
    public let serverKey: String

    /// Makes both in `folder`; the server's certificate names `names` (openssl's subjectAltName syntax).
    public init(in folder: String, names: String = "DNS:localhost,IP:127.0.0.1,IP:::1") throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        authority = folder + "/ca.pem"
        serverCertificate = folder + "/server.pem"
        serverKey = folder + "/server.key"
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(
            ["req", "-x509"] + key + [
                "-keyout", folder + "/ca.key", "-out", authority, "-days", "2", "-subj", "/CN=Postmortem Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"
            ])
        try Self.openssl(
            ["req"] + key + ["-keyout", serverKey, "-out", folder + "/server.csr", "-subj", "/CN=test server"])
        try "subjectAltName=\(names)\n".write(toFile: folder + "/names.ext", atomically: true, encoding: .utf8)
        try Self.openssl([
            "x509", "-req", "-in", folder + "/server.csr", "-CA", authority, "-CAkey", folder + "/ca.key",
            "-CAcreateserial", "-out", serverCertificate, "-days", "2", "-extfile", folder + "/names.ext"
        ])
    }

    private static func openssl(_ arguments: [String]) throws {
        let result = try Command.run("/usr/bin/openssl", arguments)
        guard result.status == 0 else {
            throw SetupFailure("openssl \(arguments.first ?? ""): \(result.standardError)")
        }
    }
}
