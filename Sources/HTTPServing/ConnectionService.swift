import BlockingIO
import Glibc

/// One connection's requests, answered in turn on its own thread until the client closes it, it idles past the idle
/// timeout, a request cannot be read, or the server stops.
struct ConnectionService {
    let stream: ConnectionStream
    let connections: Connections
    /// How long a connection closed with a body unread goes on taking what the client sends, so that the client reads
    /// the response before the close.
    private static let lingerLimit: Duration = .seconds(2)

    func serve(_ handler: some HTTPRequestHandler) {
        let settings = connections.settings
        while true {
            let head: ArraySlice<UInt8>
            do {
                guard let complete = try readHead(limit: settings.maximumHeadBytes) else {
                    respond(
                        handler.refuse(
                            RejectedRequest(431, "the request's head is larger than \(settings.maximumHeadBytes) bytes")
                        ), keepsConnection: false, withBody: true)
                    return
                }
                head = complete
            } catch .deadline {
                let reason = "the request's head did not arrive within \(settings.idleTimeout) of its first byte"
                respond(handler.refuse(RejectedRequest(408, reason)), keepsConnection: false, withBody: true)
                return
            } catch {
                return
            }
            let request: ServerRequest
            do {
                request = try Self.request(RequestHead.parse(head), stream: stream)
            } catch {
                respond(handler.refuse(error), keepsConnection: false, withBody: true)
                return
            }
            let response = handler.answer(request)
            let keeps = request.keepsConnection && request.body.isComplete && !connections.stopping.isCancelled
            guard respond(response, keepsConnection: keeps, withBody: request.method != "HEAD") else { return }
            if !keeps {
                if !request.body.isComplete { stream.lingerAfterResponse(limit: Self.lingerLimit) }
                return
            }
        }
    }

    /// Sends `response`; `false` when the client did not take it.
    @discardableResult
    private func respond(_ response: ServerResponse, keepsConnection: Bool, withBody: Bool) -> Bool {
        do {
            try stream.send(
                response.serialized(
                    server: connections.settings.serverName, keepsConnection: keepsConnection, withBody: withBody))
            return true
        } catch {
            return false
        }
    }

    /// The next request's head, up to the blank line that ends it (the bytes after it stay for the body); `nil` when
    /// it is larger than `limit`. Empty lines before a request line are skipped (RFC 9112, 2.2). Between requests,
    /// the wait ends when the server stops. A head must be whole within the idle timeout of its first byte (a client
    /// sending a byte now and then would hold its thread forever otherwise): ``ConnectionEnd/deadline`` past it.
    private func readHead(limit: Int) throws(ConnectionEnd) -> ArraySlice<UInt8>? {
        var searched = 0
        var deadline: ContinuousClock.Instant?
        while true {
            if deadline == nil && stream.buffered > 0 { deadline = .now + stream.idleTimeout }
            while stream.buffered > 0,
                stream.buffer[stream.start] == UInt8(ascii: "\r") || stream.buffer[stream.start] == UInt8(ascii: "\n")
            {
                stream.consume(1)
                searched = 0
            }
            let pending = stream.buffer[stream.start...]
            var index = pending.startIndex + max(0, searched - 3)
            while let newline = pending[index...].firstIndex(of: UInt8(ascii: "\n")) {
                let next = newline + 1
                var end: Int?
                if next < pending.endIndex, pending[next] == UInt8(ascii: "\n") { end = next }
                if next + 1 < pending.endIndex, pending[next] == UInt8(ascii: "\r"),
                    pending[next + 1] == UInt8(ascii: "\n")
                {
                    end = next + 1
                }
                if let end { return end + 1 - pending.startIndex <= limit ? take(through: end) : nil }
                index = next
            }
            searched = pending.count
            guard pending.count <= limit else { return nil }
            try stream.receive(until: deadline, stopping: stream.buffered == 0 ? connections.stopping : nil)
        }
    }

    /// The received bytes up to `end` (an index of the buffer), taken.
    private func take(through end: Int) -> ArraySlice<UInt8> {
        let head = Array(stream.buffer[stream.start...end])[...]
        stream.consume(end + 1 - stream.start)
        return head
    }

    /// The request `head` starts, with its body's framing checked.
    private static func request(_ head: RequestHead, stream: ConnectionStream) throws(RejectedRequest) -> ServerRequest
    {
        let codings = head.values("transfer-encoding").map { $0.lowercased() }
        let lengths = head.values("content-length")
        var declared: Int?
        if !lengths.isEmpty {
            guard Set(lengths).count == 1, lengths[0].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let length = Int(lengths[0])
            else {
                throw RejectedRequest(400, "the request's Content-Length is not one number")
            }
            declared = length
        }
        let chunked = !codings.isEmpty
        if chunked {
            guard codings == ["chunked"] else {
                throw RejectedRequest(
                    501, "the transfer coding \(codings.joined(separator: ", ")) is not served: chunked is")
            }
            // Both framings at once is how requests are smuggled past proxies: refused (RFC 9112, 6.3).
            guard declared == nil else {
                throw RejectedRequest(400, "the request has both Content-Length and Transfer-Encoding")
            }
        }
        let connection = head.values("connection").map { $0.lowercased() }
        let keeps = head.minorVersion == 1 ? !connection.contains("close") : connection.contains("keep-alive")
        let expectsContinue = head.minorVersion == 1 && head.field("expect")?.lowercased() == "100-continue"
        let body = RequestBody(
            stream: stream, declaredLength: declared, chunked: chunked, expectsContinue: expectsContinue)
        return ServerRequest(head: head, body: body, keepsConnection: keeps)
    }

    /// Answers a connection the server does not serve (too many at once, no thread for it) with what `handler` says
    /// for `rejection`, if the socket takes it at once (the accept loop must not wait on a client), and closes it.
    static func refuse(
        _ descriptor: Int32, _ rejection: RejectedRequest, _ handler: some HTTPRequestHandler, server: String
    ) {
        let bytes = handler.refuse(rejection).serialized(server: server, keepsConnection: false, withBody: true)
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        close(descriptor)
    }
}
