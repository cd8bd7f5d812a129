/// A response: its status, its header fields and its whole body (`Content-Length` framed).
package struct ServerResponse: Sendable {
    package var status: Int
    /// Fields besides `Content-Length`, `Connection`, `Date` and `Server`, which the server writes.
    package var fields: [(name: String, value: String)]
    package var body: [UInt8]

    package init(status: Int, contentType: String, body: [UInt8], fields: [(name: String, value: String)] = []) {
        self.status = status
        self.fields = [("Content-Type", contentType)] + fields
        self.body = body
    }

    /// The bytes sent: the head, then the body unless the request was `HEAD`.
    func serialized(server: String, keepsConnection: Bool, withBody: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\nServer: \(server)\r\n"
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        head += "Content-Length: \(body.count)\r\n"
        if !keepsConnection { head += "Connection: close\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if withBody { bytes += body }
        return bytes
    }

    /// RFC 9110's phrase for the statuses a server of ours sends.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
