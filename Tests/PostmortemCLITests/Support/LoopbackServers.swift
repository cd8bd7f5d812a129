import Foundation
import Glibc
import TestSupport

/// Debian's real debuginfod (elfutils), serving a folder on a free loopback port for one test, and stopped after it.
final class DebuginfodServer {
    let url: String
    private let process: Process

    /// Starts `debuginfod -F` over `directory` and waits until it serves `readyBuildID`'s debug information.
    /// - Parameter bindMount: a folder the server alone sees at another path (through a mount namespace of its own,
    ///   which needs root): sources it serves that the client cannot read.
    init(serving directory: String, readyBuildID: String, scratch: String, bindMount: (from: String, to: String)? = nil)
        throws
    {
        guard
            let executable = ["/usr/bin/debuginfod", "/usr/sbin/debuginfod"].first(
                where: FileManager.default.isExecutableFile)
        else {
            throw Failure("Debian's debuginfod is needed (make setup-test installs it: apt-get install debuginfod)")
        }
        // The port is free when picked, and another program may take it before the server binds it (debuginfod
        // cannot be given port 0 and say which it got): a server that exits at once is started again on another.
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            let process = Process()
            // -F: ELF files below the folder; -t 0 and -g 0: no rescans or grooming while the test runs.
            let arguments = [
                "-F", "-p", String(port), "-d", scratch + "/debuginfod-\(port).sqlite", "-t", "0", "-g", "0", directory
            ]
            if let bindMount {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
                process.arguments =
                    [
                        "--mount", "--propagation", "private", "sh", "-c",
                        #"mount --bind "$0" "$1" && shift && exec "$@""#,
                        bindMount.from, bindMount.to, executable
                    ] + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
            }
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            let url = "http://127.0.0.1:\(port)"
            // Ready once the scan has indexed the folder: debuginfod-find (same package) gets a file from it.
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, process.isRunning {
                let found = try Command.run(
                    "/usr/bin/debuginfod-find", ["debuginfo", readyBuildID],
                    environment: [
                        "DEBUGINFOD_URLS": url, "DEBUGINFOD_CACHE_PATH": scratch + "/ready-cache",
                        "DEBUGINFOD_TIMEOUT": "2"
                    ])
                try? FileManager.default.removeItem(atPath: scratch + "/ready-cache")
                if found.status == 0 {
                    (self.url, self.process) = (url, process)
                    return
                }
                usleep(200_000)
            }
            guard !process.isRunning else {
                Self.kill(process)
                throw Failure("debuginfod did not serve \(readyBuildID) from \(directory) within 30 s")
            }
        }
        throw Failure("debuginfod exited at start five times (each on a port free a moment before)")
    }

    /// SIGKILL: a child started from one of the test runner's threads inherits their blocked signals, SIGTERM among them.
    private static func kill(_ process: Process) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func stop() { Self.kill(process) }

    deinit { stop() }
}

/// A loopback server that accepts connections and never answers: a server that hangs. It counts the connections made
/// to it, so that a test can say whether a run asked it, and how many times, without timing the run.
final class SilentServer {
    let url: String
    private let socketDescriptor: Int32
    private let held = HeldConnections()

    init() throws {
        let (descriptor, port) = try LoopbackPort.listening()
        socketDescriptor = descriptor
        url = "http://127.0.0.1:\(port)"
        Thread.detachNewThread { [held] in
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                // Held open, never read or answered, until the server goes.
                held.add(connection)
            }
        }
    }

    /// How many connections were made to it so far.
    var connections: Int { held.count }

    deinit {
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        close(socketDescriptor)
        held.closeAll()
    }
}

/// The connections a silent server holds open, from its accepting thread.
private final class HeldConnections: @unchecked Sendable {
    private let lock = NSLock()
    private var descriptors: [Int32] = []
    func add(_ descriptor: Int32) { lock.withLock { descriptors.append(descriptor) } }
    var count: Int { lock.withLock { descriptors.count } }
    func closeAll() {
        lock.withLock {
            descriptors.forEach { close($0) }; descriptors = []
        }
    }
}

/// A loopback HTTP server that answers every request with 200 and the same file, whatever build-id was asked: a
/// server that sends the wrong file. HTTP/1.1 with a length and `Connection: close`, one request per connection.
/// With `stallingAfter`, it sends that many bytes of the file and then nothing more, the connection left open: a
/// download that never ends.
final class OneFileServer: @unchecked Sendable {
    let url: String
    private let socketDescriptor: Int32
    private let body: Data
    private let stallingAfter: Int?

    init(answering file: String, stallingAfter: Int? = nil) throws {
        body = try Data(contentsOf: URL(fileURLWithPath: file))
        self.stallingAfter = stallingAfter
        let (descriptor, port) = try LoopbackPort.listening()
        socketDescriptor = descriptor
        url = "http://127.0.0.1:\(port)"
        Thread.detachNewThread { [self] in serve() }
    }

    private func serve() {
        while true {
            let connection = accept(socketDescriptor, nil, nil)
            guard connection >= 0 else { return }
            var request = [UInt8](repeating: 0, count: 4096)
            var received = 0
            // Up to the end of the request's head.
            while received < request.count {
                let count = request.withUnsafeMutableBytes {
                    read(connection, $0.baseAddress! + received, $0.count - received)
                }
                if count <= 0 { break }
                received += count
                if String(decoding: request[..<received], as: UTF8.self).contains("\r\n\r\n") { break }
            }
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            for chunk in [Data(head.utf8), stallingAfter.map { body.prefix($0) } ?? body] {
                chunk.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        // send with MSG_NOSIGNAL: a client that hangs up early (a file over its size limit) must not SIGPIPE the tests.
                        let written = send(
                            connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                        if written <= 0 { break }
                        offset += written
                    }
                }
            }
            // A stalled download's connection stays open until the server goes.
            if stallingAfter == nil { close(connection) }
        }
    }

    deinit { shutdown(socketDescriptor, Int32(SHUT_RDWR)); close(socketDescriptor) }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
