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
    init(serving directory: String, readyBuildID: String, scratch: String, bindMount: (from: String, to: String)? = nil) throws {
        guard let executable = ["/usr/bin/debuginfod", "/usr/sbin/debuginfod"].first(where: FileManager.default.isExecutableFile) else {
            throw Failure("Debian's debuginfod is needed (make test installs it: apt-get install debuginfod)")
        }
        let port = try LoopbackPort.free()
        url = "http://127.0.0.1:\(port)"
        process = Process()
        // -F: ELF files below the folder; -t 0 and -g 0: no rescans or grooming while the test runs.
        let arguments = ["-F", "-p", String(port), "-d", scratch + "/debuginfod.sqlite", "-t", "0", "-g", "0", directory]
        if let bindMount {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = ["--mount", "--propagation", "private", "sh", "-c", #"mount --bind "$0" "$1" && shift && exec "$@""#,
                                 bindMount.from, bindMount.to, executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // Ready once the scan has indexed the folder: debuginfod-find (same package) gets a file from it.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let found = try Command.run("/usr/bin/debuginfod-find", ["debuginfo", readyBuildID],
                                        environment: ["DEBUGINFOD_URLS": url, "DEBUGINFOD_CACHE_PATH": scratch + "/ready-cache",
                                                      "DEBUGINFOD_TIMEOUT": "2"])
            if found.status == 0 { return }
            try? FileManager.default.removeItem(atPath: scratch + "/ready-cache")
            usleep(200_000)
        }
        stop()
        throw Failure("debuginfod did not serve \(readyBuildID) from \(directory) within 30 s")
    }

    func stop() {
        guard process.isRunning else { return }
        // SIGKILL: a child started from one of the test runner's threads inherits their blocked signals, SIGTERM among them.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// A loopback port that accepts connections (the kernel completes them into the listen queue) and never answers:
/// a server that hangs.
final class SilentServer {
    let url: String
    private let socketDescriptor: Int32

    init() throws {
        let (descriptor, port) = try LoopbackPort.listening()
        socketDescriptor = descriptor
        url = "http://127.0.0.1:\(port)"
    }

    deinit { close(socketDescriptor) }
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
                let count = request.withUnsafeMutableBytes { read(connection, $0.baseAddress! + received, $0.count - received) }
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
                        let written = send(connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
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

enum LoopbackPort {
    /// A socket listening on a free loopback port, and the port.
    static func listening() throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && listen(descriptor, 64) == 0
                && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else {
            close(descriptor)
            throw Failure("cannot listen on loopback: \(String(cString: strerror(errno)))")
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    /// A loopback port free now (for a server started next).
    static func free() throws -> UInt16 {
        let (descriptor, port) = try listening()
        close(descriptor)
        return port
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
