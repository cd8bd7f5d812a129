/// A request as the handler gets it: its head read and checked, its body still to be read from the connection.
package struct ServerRequest {
    let head: RequestHead
    package let body: RequestBody
    /// Whether the client keeps the connection for another request (HTTP/1.1 unless it says `close`; HTTP/1.0 when
    /// it says `keep-alive`).
    let keepsConnection: Bool

    /// `GET`, `POST`, …, as sent.
    package var method: String { head.method }
    /// The target's path, as sent (not percent-decoded).
    package var path: String { head.path }
    /// What follows `?` in the target, as sent.
    package var query: String? { head.query }

    /// The first value of the header field `name`, compared without case.
    package func field(_ name: String) -> String? { head.field(name) }

    /// The value of the query parameter `name`, percent-decoded; `nil` when the query has none, or it does not decode.
    package func queryParameter(_ name: String) -> String? {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if PercentDecoding.decode(parts[0]) == name {
                return parts.count > 1 ? PercentDecoding.decode(parts[1]) : ""
            }
        }
        return nil
    }

    /// The path's segments after the first `/`, each percent-decoded; `nil` when one does not decode to UTF-8.
    package var pathSegments: [String]? {
        var segments: [String] = []
        for segment in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = PercentDecoding.decode(segment) else { return nil }
            segments.append(decoded)
        }
        return segments
    }
}

/// `%XX` escapes taken back to their bytes.
enum PercentDecoding {
    static func decode(_ text: Substring) -> String? {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
                else {
                    return nil
                }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
