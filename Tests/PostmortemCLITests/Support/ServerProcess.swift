import Foundation
import Glibc
import TestSupport

/// `postmortem serve` on a free loopback port (port 0: the server says which on its first line of output), for one
/// test, stopped after it. Requests go through curl, a client that is not ours.
final class ServerProcess: @unchecked Sendable {
    let url: String
    let process: Process
    /// The server's log (its standard error), for a failing test to show.
    let logPath: String

    /// - Parameter environment: on top of the tests' own; give `POSTMORTEM_CACHE_DIR` a scratch folder.
    init(arguments: [String], environment: [String: String], scratch: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.postmortem)
        process.arguments = ["serve", "--port", "0"] + arguments
        var inherited = ProcessInfo.processInfo.environment
        inherited["DEBUGINFOD_URLS"] = nil
        process.environment = inherited.merging(environment) { $1 }
        process.currentDirectoryURL = Paths.packageRoot
        logPath = scratch + "/server-\(UUID().uuidString).log"
        FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: logPath)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The first line says where it listens; nothing else is written to standard output.
        let firstLine = DispatchSemaphore(value: 0)
        let line = LineBox()
        DispatchQueue.global().async {
            var bytes: [UInt8] = []
            while !bytes.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                bytes += chunk
            }
            line.text = String(decoding: bytes, as: UTF8.self)
            firstLine.signal()
        }
        guard firstLine.wait(timeout: .now() + 60) == .success, let text = line.text,
            let range = text.range(of: "http://")
        else {
            kill(process.processIdentifier, SIGKILL)
            throw Failure("postmortem serve did not say where it listens within 60 s; its log: \(Self.read(logPath))")
        }
        url = String(text[range.lowerBound...].prefix { !$0.isWhitespace })
    }

    /// The server's log so far.
    var log: String { Self.read(logPath) }

    /// Sends `signal` and waits up to `seconds` for the server to end; its exit status, or `nil` when it did not end.
    func stop(signal: Int32 = SIGTERM, waitingUpTo seconds: Double = 15) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        send(signal)
        return exitStatus(waitingUpTo: seconds)
    }

    /// Sends `signal` and returns at once.
    func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits up to `seconds` for the server to end; its exit status, or `nil` when it did not end.
    func exitStatus(waitingUpTo seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
}

private final class LineBox: @unchecked Sendable {
    var text: String?
}

/// One HTTP exchange by curl.
struct HTTPAnswer {
    var status: Int
    var body: String
    var contentType: String
    /// From curl's connecting to its having the whole answer (curl's `time_total`).
    var seconds: Double
}

enum HTTP {
    /// Sends `body` (a file's contents, or text) with `method` to `url`; `extra` goes to curl as it is (headers, rate
    /// limits).
    static func send(
        _ method: String, _ url: String, body: String? = nil, bodyFile: String? = nil, extra: [String] = [],
        timeout: Int = 120
    ) throws -> HTTPAnswer {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "postmortem-http-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var arguments =
            [
                "-s", "-S", "-X", method, "-o", scratch + ".body", "-w", "%{http_code} %{time_total} %{content_type}",
                "--max-time", String(timeout)
            ] + extra
        defer { try? FileManager.default.removeItem(atPath: scratch + ".body") }
        if let body {
            try Data(body.utf8).write(to: URL(fileURLWithPath: scratch + ".request"))
            arguments += ["--data-binary", "@" + scratch + ".request"]
        } else if let bodyFile {
            arguments += ["--data-binary", "@" + bodyFile]
        }
        defer { try? FileManager.default.removeItem(atPath: scratch + ".request") }
        let result = try Command.run("/usr/bin/env", ["curl"] + arguments + [url])
        let written = result.standardOutput.split(separator: " ", maxSplits: 2)
        guard result.status == 0, let status = written.first.flatMap({ Int($0) }) else {
            throw Failure("curl \(method) \(url) failed (\(result.status)): \(result.standardError)")
        }
        let answer = (try? String(contentsOfFile: scratch + ".body", encoding: .utf8)) ?? ""
        return HTTPAnswer(
            status: status, body: answer, contentType: written.count > 2 ? String(written[2]) : "",
            seconds: written.count > 1 ? Double(written[1]) ?? 0 : 0)
    }
}

/// Breakpad debug ids worked out here from `readelf -n`'s build-id, independently of the server's own reading.
enum DebugIDs {
    static func elf(_ path: String) throws -> String {
        let notes = try Fixtures.run("readelf", ["-n", path])
        guard let line = notes.split(separator: "\n").first(where: { $0.contains("Build ID:") }),
            let hex = line.split(separator: " ").last
        else { throw Failure("\(path) has no build-id") }
        var bytes: [UInt8] = stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
        bytes = Array(bytes.prefix(16)) + Array(repeating: 0, count: max(0, 16 - bytes.count))
        // A GUID's first three fields are little-endian.
        let guid =
            Array(bytes[0..<4].reversed()) + Array(bytes[4..<6].reversed()) + Array(bytes[6..<8].reversed())
            + Array(bytes[8...])
        return guid.map { String(format: "%02X", $0) }.joined() + "0"
    }
}
