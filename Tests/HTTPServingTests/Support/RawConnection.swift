import Foundation
import Glibc

/// A TCP connection to a loopback port that sends and reads bytes as they are, so that tests see what the server
/// wrote, byte for byte; every read bounded.
final class RawConnection {
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let number = errno
            close(descriptor)
            throw ClientFailure("connect to port \(port): \(String(cString: strerror(number)))")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw ClientFailure("send: \(sent) of \(bytes.count) bytes") }
    }

    /// What arrives until `done` holds for all of it, the server closes, or `seconds` pass.
    func read(for seconds: Double = 10, until done: (String) -> Bool = { _ in false }) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        let end = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < end {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, end.timeIntervalSinceNow * 1000))
            guard poll(&ready, 1, left) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[..<count]
            if done(String(decoding: received, as: UTF8.self)) { break }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// Reads until `count` whole responses (heads and `Content-Length` bodies) have come.
    func responses(_ count: Int, within seconds: Double = 10) -> [RawResponse] {
        let text = read(for: seconds) { RawResponse.split($0).count >= count }.text
        return RawResponse.split(text)
    }
}

/// A response as the server wrote it.
struct RawResponse {
    let status: Int
    let head: String
    let body: String

    /// The value of the field `name` (compared without case).
    func field(_ name: String) -> String? {
        head.split(separator: "\r\n").dropFirst().compactMap { line -> String? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == name.lowercased() else { return nil }
            return parts[1].trimmingCharacters(in: .whitespaces)
        }.first
    }

    /// The whole responses at the start of `text`.
    static func split(_ text: String) -> [RawResponse] {
        var responses: [RawResponse] = []
        var rest = Substring(text)
        while let end = rest.range(of: "\r\n\r\n") {
            let head = String(rest[..<end.lowerBound])
            let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? -1
            let length =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            let afterHead = rest[end.upperBound...]
            // A 1xx response has no body; a HEAD response's length is not followed by a body either (the test says).
            let bodyLength = (100..<200).contains(status) ? 0 : length
            guard afterHead.utf8.count >= bodyLength else { break }
            let bodyEnd = afterHead.utf8.index(afterHead.startIndex, offsetBy: bodyLength)
            responses.append(RawResponse(status: status, head: head, body: String(afterHead[..<bodyEnd])))
            rest = afterHead[bodyEnd...]
        }
        return responses
    }
}

struct ClientFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
