import BlockingIO
import Foundation
import Glibc
import HTTPServing
import Testing

/// The server in process, spoken to by a client that writes and reads raw bytes: framing, connections kept and
/// closed, refusals, bounds and the graceful stop.
@Suite struct HTTPServerTests {
    @Test func requestsSentTogetherAreAnsweredInOrderOnOneConnection() throws {
        let running = try RunningServer(EchoHandler())
        let client = try RawConnection(port: running.port)
        try client.send(
            "POST /echo?a=1&name=x%2Fy HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
                + "GET /second HTTP/1.1\r\nHost: h\r\n\r\n"
                + "\r\nPOST /third HTTP/1.1\nContent-Length: 3\n\nabc")
        let answers = client.responses(3)
        #expect(answers.map(\.status) == [200, 200, 200])
        #expect(answers.first?.body == "POST /echo query=a=1&name=x%2Fy name=x/y length=5\nhello")
        #expect(answers.dropFirst().first?.body == "GET /second query=- length=0\n")
        // Lines ended by a bare LF, after an empty line, are read too.
        #expect(answers.last?.body == "POST /third query=- length=3\nabc")
        #expect(answers.allSatisfy { $0.field("Connection") == nil && $0.field("Server") == "test" })
        // And the connection is still open for a fourth.
        try client.send("GET /fourth HTTP/1.1\r\n\r\n")
        #expect(client.responses(1).first?.body == "GET /fourth query=- length=0\n")
    }

    @Test func aChunkedBodyIsReadWithItsExtensionsAndTrailers() throws {
        let running = try RunningServer(EchoHandler())
        let client = try RawConnection(port: running.port)
        try client.send(
            "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;note=first\r\nhello\r\n1A\r\n"
                + String(repeating: "z", count: 26) + "\r\n0\r\nChecksum: none\r\n\r\nGET /after HTTP/1.1\r\n\r\n")
        let answers = client.responses(2)
        #expect(answers.first?.body == "POST /echo query=- length=31\nhello" + String(repeating: "z", count: 26))
        #expect(answers.last?.body == "GET /after query=- length=0\n")
        // A size that is not hexadecimal reaches the handler as a broken framing; the connection is not kept.
        let broken = try RawConnection(port: running.port)
        try broken.send("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n")
        let reply = broken.read { RawResponse.split($0).count == 1 }
        #expect(RawResponse.split(reply.text).first?.status == 400)
        #expect(reply.text.contains("chunked framing is broken: zz is no chunk size"), "\(reply.text)")
        #expect(broken.read(for: 5).closed)
    }

    @Test func continueIsSentOnlyWhenTheBodyIsRead() throws {
        let running = try RunningServer(EchoHandler())
        let client = try RawConnection(port: running.port)
        try client.send("POST /echo HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        let interim = client.read { $0.contains("\r\n\r\n") }.text
        #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
        try client.send("body")
        #expect(client.responses(1).first?.body == "POST /echo query=- length=4\nbody")
        // Answered without its body: no 100, and the connection is closed after the answer (the body's end is unknown).
        let unread = try RawConnection(port: running.port)
        try unread.send("POST /unread HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 1000000\r\n\r\n")
        let reply = unread.read(for: 10)
        #expect(reply.text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(reply.text)")
        #expect(!reply.text.contains("100 Continue"))
        #expect(reply.text.contains("Connection: close\r\n"))
        #expect(reply.closed)
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", 400, "not METHOD TARGET HTTP/1.1"),
        ("GET /x HTTP/2.0\r\n\r\n", 505, "HTTP/2.0 is not served"),
        ("GET x HTTP/1.1\r\n\r\n", 400, "is not a path"),
        ("GET /x HTTP/1.1\r\nno colon here\r\n\r\n", 400, "not NAME: VALUE"),
        ("GET /x HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", 400, "folded"),
        ("POST /echo HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "both"),
        ("POST /echo HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", 400, "not one number"),
        ("POST /echo HTTP/1.1\r\nContent-Length: -3\r\n\r\n", 400, "not one number"),
        ("POST /echo HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501, "gzip, chunked is not served"),
        ("GET /x HTTP/1.1\r\nLong: " + String(repeating: "v", count: 5000) + "\r\n\r\n", 431, "larger than 4096")
    ])
    func unreadableRequestsAreRefusedAndTheConnectionClosed(_ request: String, _ status: Int, _ reason: String) throws {
        let running = try RunningServer(EchoHandler())
        let client = try RawConnection(port: running.port)
        try client.send(request)
        let reply = client.read(for: 10)
        let response = RawResponse.split(reply.text).first
        #expect(response?.status == status, "\(reply.text)")
        #expect(response?.body.hasPrefix("refused: ") == true && response?.body.contains(reason) == true)
        #expect(response?.field("Connection") == "close")
        #expect(reply.closed)
    }

    @Test func aHeadRequestGetsTheLengthAndNoBody() throws {
        let running = try RunningServer(EchoHandler())
        let client = try RawConnection(port: running.port)
        try client.send("HEAD /echo HTTP/1.1\r\n\r\nGET /next HTTP/1.1\r\n\r\n")
        let text = client.read { $0.contains("GET /next query=- length=0\n") }.text
        let heads = text.components(separatedBy: "HTTP/1.1 200 OK\r\n")
        #expect(heads.count == 3, "\(text)")
        #expect(!heads[1].contains("HEAD /echo"), "a HEAD response carried a body: \(text)")
        #expect(heads[1].contains("Content-Length: 28\r\n"))
    }

    @Test func http10ClosesUnlessAskedToKeep() throws {
        let running = try RunningServer(EchoHandler())
        let closing = try RawConnection(port: running.port)
        try closing.send("GET /a HTTP/1.0\r\n\r\n")
        let closed = closing.read(for: 10)
        #expect(closed.closed && closed.text.contains("Connection: close\r\n"))
        let kept = try RawConnection(port: running.port)
        try kept.send("GET /a HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\nGET /b HTTP/1.1\r\nConnection: close\r\n\r\n")
        let reply = kept.read(for: 10)
        #expect(RawResponse.split(reply.text).map(\.body) == ["GET /a query=- length=0\n", "GET /b query=- length=0\n"])
        #expect(reply.closed)
    }

    @Test func aConnectionThatSendsNothingIsClosedAfterTheIdleTimeout() throws {
        let running = try RunningServer(EchoHandler(), idleTimeout: .milliseconds(300))
        let silent = try RawConnection(port: running.port)
        let started = Date()
        #expect(silent.read(for: 20).closed)
        // Closed at its timeout, ten times that at most; not before.
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.29 && waited < 3, "closed after \(waited) s")
        // Half a body, then nothing: the handler sees the body cut short.
        let stalled = try RawConnection(port: running.port)
        try stalled.send("POST /echo HTTP/1.1\r\nContent-Length: 10\r\n\r\nhalf")
        let reply = stalled.read(for: 20)
        #expect(reply.text.contains("the body was cut short: nothing came for the idle timeout"), "\(reply.text)")
    }

    @Test func aHeadSentAByteAtATimeIsCutAtTheIdleTimeoutOfItsFirstByte() throws {
        let running = try RunningServer(EchoHandler(), idleTimeout: .milliseconds(500))
        let trickle = try RawConnection(port: running.port)
        let started = Date()
        var sent = 0
        // A byte every 50 ms, each well within the idle timeout: 4 s for the whole head.
        let head = Array("GET /slow HTTP/1.1\r\nX-Padding: \(String(repeating: "p", count: 60))\r\n\r\n".utf8)
        for byte in head {
            guard (try? trickle.send([byte])) != nil else { break }
            sent += 1
            usleep(50_000)
            var ready = pollfd(fd: trickle.descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 0) > 0 { break }
        }
        let reply = trickle.read(for: 10)
        #expect(reply.text.hasPrefix("HTTP/1.1 408 "), "\(reply.text)")
        #expect(reply.text.contains("refused: the request's head did not arrive within"))
        #expect(reply.closed)
        // Cut at the idle timeout (ten times that at most), not once the whole head had come.
        let waited = Date().timeIntervalSince(started)
        #expect(sent < head.count && waited >= 0.49 && waited < 5, "\(sent) bytes sent, cut after \(waited) s")
    }

    @Test func connectionsPastTheLimitAreRefused() throws {
        let running = try RunningServer(EchoHandler(), maximumConnections: 1)
        let first = try RawConnection(port: running.port)
        try first.send("GET /a HTTP/1.1\r\n\r\n")
        #expect(first.responses(1).first?.status == 200)
        let second = try RawConnection(port: running.port)
        let reply = second.read(for: 10)
        #expect(reply.text.hasPrefix("HTTP/1.1 503 "), "\(reply.text)")
        #expect(reply.text.contains("refused: the server has too many connections"))
        #expect(reply.closed)
    }

    @Test func aStopFinishesTheRequestInFlightAndClosesTheRest() throws {
        let handler = EchoHandler()
        // An idle timeout far past the reads' bounds: the idle connection must be closed by the stop, not by it.
        let running = try RunningServer(handler, idleTimeout: .seconds(120))
        let idle = try RawConnection(port: running.port)
        try idle.send("GET /a HTTP/1.1\r\n\r\n")
        #expect(idle.responses(1).first?.status == 200)
        let busy = try RawConnection(port: running.port)
        try busy.send("POST /held HTTP/1.1\r\nContent-Length: 4\r\n\r\n")
        let end = Date().addingTimeInterval(20)
        while handler.requestsHeld == 0 && Date() < end { usleep(10_000) }
        #expect(handler.requestsHeld == 1)
        running.server.stop()
        // The connection between requests is closed; no new connection is taken.
        #expect(idle.read(for: 10).closed)
        let refusedEnd = Date().addingTimeInterval(10)
        var refused = false
        while !refused && Date() < refusedEnd {
            refused = (try? RawConnection(port: running.port)) == nil
            if !refused { usleep(10_000) }
        }
        #expect(refused, "a connection was still taken after the stop")
        #expect(!running.hasReturned)
        // The request in flight gets its body read and its answer, with the connection closed after it.
        try busy.send("body")
        handler.release()
        let reply = busy.read(for: 10)
        #expect(RawResponse.split(reply.text).first?.body == "POST /held query=- length=4\nbody", "\(reply.text)")
        #expect(reply.text.contains("Connection: close\r\n") && reply.closed)
        #expect(running.waitUntilReturned(10))
    }
}
