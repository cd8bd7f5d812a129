import BlockingIO
import Foundation
import HTTPDownload
import TestSupport
import Testing

/// The HTTP client debuginfod downloads go through, against a loopback server whose every path is a case
/// (Tests/Fixtures/http-test-server.py): framings, redirects, failures, limits, TLS.
@Suite("HTTP downloads")
struct HTTPDownloadTests {
    @Test(
        "Every framing gives the exact bytes: a length, chunks with extensions and a trailer, the connection's end, after 100 Continue",
        arguments: ["file", "chunked", "close", "continue"])
    func framings(path: String) async throws {
        let (folder, blob) = try servedFolder("http-framing")
        let server = try TestHTTPServer(serving: folder)
        let fetched = try await download("\(server.url)/\(path)/blob").get()
        #expect(fetched.status == 200)
        #expect(fetched.body == blob, "\(fetched.body.count) bytes of \(blob.count)")
        let missing = try await download("\(server.url)/nothing-here").get()
        #expect(missing.status == 404 && String(decoding: missing.body, as: UTF8.self) == "not found")
    }

    @Test("Redirects: relative and absolute ones are followed and each is told; a circle, and a sixth, are refused")
    func redirects() async throws {
        let (folder, blob) = try servedFolder("http-redirects")
        let server = try TestHTTPServer(serving: folder)
        let three = try await download("\(server.url)/redirect/3/blob").get()
        #expect(three.body == blob)
        #expect(
            three.redirects == [
                "\(server.url)/redirect/2/blob", "\(server.url)/redirect/1/blob", "\(server.url)/file/blob"
            ], "\(three.redirects)")
        #expect(three.address == "\(server.url)/file/blob")
        let absolute = try await download("\(server.url)/absolute/blob").get()
        #expect(absolute.body == blob && absolute.redirects == ["\(server.url)/file/blob"])
        let five = try await download("\(server.url)/redirect/5/blob").get()
        #expect(five.body == blob && five.redirects.count == 5)
        #expect(
            await download("\(server.url)/redirect/6/blob").failure == .redirects("redirected more than 5 times"))
        let circle = await download("\(server.url)/cycle/a").failure
        #expect(
            circle
                == .redirects(
                    "redirected in a circle: \(server.url)/cycle/a → \(server.url)/cycle/b → \(server.url)/cycle/a"),
            "\(String(describing: circle))")
    }

    @Test("A body cut short is an error naming the bytes missing, never a short file")
    func truncatedBody() async throws {
        let (folder, _) = try servedFolder("http-short")
        let server = try TestHTTPServer(serving: folder)
        let failure = await download("\(server.url)/short/blob").failure
        #expect(failure == .badResponse("the connection closed 1000 bytes before the body's end"))
    }

    @Test("A stalled body ends at the idle timeout, at the deadline, and at once when cancelled")
    func stalledBody() async throws {
        let (folder, _) = try servedFolder("http-stall")
        let server = try TestHTTPServer(serving: folder)
        let url = "\(server.url)/stall/blob"
        // Bounds ten times the expected time, for a loaded machine.
        let idle = await timedDownload(
            url, limits: HTTPLimits(connectTimeout: .seconds(30), idleTimeout: .seconds(1)))
        #expect(idle.result.failure == .idleTimeout)
        #expect(idle.took >= .milliseconds(900) && idle.took < .seconds(10), "\(idle.took)")
        let late = await timedDownload(
            url,
            limits: HTTPLimits(connectTimeout: .seconds(30), idleTimeout: .seconds(60), deadline: .now + .seconds(1)))
        #expect(late.result.failure == .deadlineExceeded)
        #expect(late.took >= .milliseconds(900) && late.took < .seconds(10), "\(late.took)")
        // Cancelled from another thread once the first bytes came: the 60 s idle timeout is not waited out.
        let cancellation = CancellationSignal()
        let cancelled = await timedDownload(
            url, limits: HTTPLimits(connectTimeout: .seconds(60), idleTimeout: .seconds(60)),
            cancellation: cancellation, afterFirstBytes: { BackgroundThread.start { cancellation.cancel() } })
        #expect(cancelled.result.failure == .cancelled)
        #expect(cancelled.took < .seconds(20), "\(cancelled.took)")
    }

    @Test("A refused connection, a name that does not resolve, a URL of another scheme: each its own failure")
    func unreachable() async throws {
        let (socket, port) = try LoopbackPort.refusing()
        defer { close(socket) }
        #expect(await download("http://127.0.0.1:\(port)/file/blob").failure == .connectionRefused)
        let unresolved = await download("http://debuginfod.postmortem.invalid/file/blob").failure
        guard case .nameDoesNotResolve(let host, _) = unresolved else {
            Issue.record("\(String(describing: unresolved))")
            return
        }
        #expect(host == "debuginfod.postmortem.invalid")
        #expect(await download("ftp://127.0.0.1/file").failure == .badURL("not http or https"))
        #expect(await download("http://127.0.0.1:99999/file").failure == .badURL("port '99999'"))
    }

    @Test("The request: Host with its port, User-Agent, the caller's fields, Basic credentials from the URL")
    func requestHead() async throws {
        let (folder, _) = try servedFolder("http-echo")
        let server = try TestHTTPServer(serving: folder)
        let withCredentials = server.url.replacingOccurrences(of: "://", with: "://user:secret@")
        let echoed = try await download(
            "\(withCredentials)/echo?x=1#fragment", fields: [("X-DEBUGINFOD-MAXSIZE", "1000")]
        ).get()
        let lines = String(decoding: echoed.body, as: UTF8.self).split(separator: "\r\n").map(String.init)
        #expect(
            lines == [
                "GET /echo?x=1 HTTP/1.1", "Host: 127.0.0.1:\(server.port)", "User-Agent: postmortem", "Accept: */*",
                "Authorization: Basic dXNlcjpzZWNyZXQ=", "X-DEBUGINFOD-MAXSIZE: 1000"
            ], "\(lines)")
        #expect(
            await download("\(server.url)/echo", fields: [("X-A", "1\r\nX-B: 2")]).failure
                == .badURL("a line break in the field X-A"))
    }

    @Test(
        "A connection read to its end carries the next request to the same server, plain and TLS; one the server closes as a request goes out is replaced"
    )
    func keptConnections() async throws {
        let (folder, blob) = try servedFolder("http-keep")
        let certificates = try TestCertificates(in: folder + "/pki")
        for tls in [nil, certificates] {
            let server = try TestHTTPServer(serving: folder, tls: tls)
            // Kept, then closed by the server 0.3 s after its answer without reading the request already sent: asked
            // again on a new connection. Then bodies ended by their length or chunks whose connection the server
            // closes at once: found out.
            let paths = ["keep", "keep", "keep", "keep-then-close", "keep", "chunked", "continue", "keep"]
            let fetched = await downloadsInSequence(
                paths.map { "\(server.url)/\($0)/blob" }, with: HTTPDownloader(trusting: certificates.authority))
            var counts: [String] = []
            for (path, result) in zip(paths, fetched) {
                let download = try result.get()
                #expect(download.body == blob, "\(path): \(download.body.count) bytes")
                counts.append(download.fields.first { $0.name == "X-Requests-On-Connection" }?.value ?? "-")
            }
            // The count the server gave: how many requests the connection had carried.
            #expect(counts == ["1", "2", "3", "4", "1", "-", "-", "1"], "TLS: \(tls != nil)")
        }
    }

    @Test("IPv6: a bracketed literal is connected to, and sent as the Host")
    func ipv6() async throws {
        let (folder, blob) = try servedFolder("http-ipv6")
        let server = try TestHTTPServer(serving: folder, ipv6: true)
        #expect(try await download("\(server.url)/chunked/blob").get().body == blob)
        let echoed = try await download("\(server.url)/echo").get()
        #expect(String(decoding: echoed.body, as: UTF8.self).contains("Host: [::1]:\(server.port)\r\n"))
    }

    @Test(
        "HTTPS: every framing and a redirect with the test authority trusted; the system's authorities reject it, as does a certificate of another name"
    )
    func https() async throws {
        let (folder, blob) = try servedFolder("http-tls")
        let certificates = try TestCertificates(in: folder + "/pki")
        let server = try TestHTTPServer(serving: folder, tls: certificates)
        let trusting = HTTPDownloader(trusting: certificates.authority)
        for path in ["file", "chunked", "close", "redirect/2"] {
            let fetched = try await download("\(server.url)/\(path)/blob", with: trusting).get()
            #expect(fetched.body == blob, "\(path): \(fetched.body.count) bytes")
        }
        // By name: the certificate names localhost.
        #expect(try await download("https://localhost:\(server.port)/file/blob", with: trusting).get().body == blob)
        let untrusted = await download("\(server.url)/file/blob", with: HTTPDownloader()).failure
        guard case .certificateRejected(let why) = untrusted else {
            Issue.record("\(String(describing: untrusted))")
            return
        }
        #expect(why.contains("unable to get local issuer certificate"), "\(why)")

        let other = try TestCertificates(in: folder + "/other-pki", names: "DNS:elsewhere.example")
        let elsewhere = try TestHTTPServer(serving: folder, tls: other)
        let mismatch = await download(
            "https://localhost:\(elsewhere.port)/file/blob", with: HTTPDownloader(trusting: other.authority)
        ).failure
        #expect(mismatch == .certificateRejected("hostname mismatch"), "\(String(describing: mismatch))")
        let byAddress = await download("\(elsewhere.url)/file/blob", with: HTTPDownloader(trusting: other.authority))
        #expect(byAddress.failure == .certificateRejected("IP address mismatch"), "\(String(describing: byAddress))")
    }

    @Test("URLs: ports, IPv6 hosts, credentials; Location read against the address redirected from")
    func addresses() throws {
        let address = try WebAddress("https://u:p@[::1]:8443/a/b/c?q=1#f")
        #expect(address.secure && address.host == "::1" && address.port == 8443 && address.target == "/a/b/c?q=1")
        #expect(address.credentials == "u:p" && address.description == "https://[::1]:8443/a/b/c?q=1")
        #expect(try WebAddress("http://host").description == "http://host/")
        #expect(try WebAddress("HTTP://host:80?x").description == "http://host/?x")
        let base = try WebAddress("http://host:81/buildid/ab/debuginfo?x=1")
        let cases = [
            ("/other", "http://host:81/other"), ("next", "http://host:81/buildid/ab/next"),
            ("../up", "http://host:81/buildid/up"), ("../../../x/./y", "http://host:81/x/y"),
            ("./", "http://host:81/buildid/ab/"), ("?y=2", "http://host:81/buildid/ab/debuginfo?y=2"),
            ("//mirror/x", "http://mirror/x"), ("https://mirror:9/y#z", "https://mirror:9/y")
        ]
        for (location, expected) in cases {
            #expect(try base.resolving(location).description == expected, "\(location)")
        }
        #expect(throws: HTTPFailure.redirects("redirected to file:///etc/passwd, which is neither http nor https")) {
            try base.resolving("file:///etc/passwd")
        }
        #expect(throws: HTTPFailure.badURL("no host")) { try WebAddress("http:///x") }
    }
}

extension Result {
    /// The failure, or `nil` on success.
    var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
