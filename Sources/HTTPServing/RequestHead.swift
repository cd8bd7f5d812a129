import PostmortemCore

/// A request's line and header fields, as RFC 9112 writes them: `METHOD target HTTP/1.x`, then `name: value`
/// lines. Lines may end in CRLF or a bare LF; field lines folded onto the next (obsolete) are refused.
struct RequestHead {
    let method: String
    /// The target's path, as sent (not percent-decoded); from an absolute target (`http://host/path`), its path.
    let path: String
    /// What follows `?` in the target, as sent.
    let query: String?
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    let minorVersion: Int
    let fields: [(name: String, value: String)]

    static func parse(_ bytes: ArraySlice<UInt8>) throws(RejectedRequest) -> RequestHead {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { throw RejectedRequest(400, "the request has no request line") }
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty,
            parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw RejectedRequest(400, "the request line is not METHOD TARGET HTTP/1.1")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        let minorVersion: Int
        switch version {
        case "HTTP/1.1": minorVersion = 1
        case "HTTP/1.0": minorVersion = 0
        case _ where version.hasPrefix("HTTP/"):
            throw RejectedRequest(505, "\(version) is not served: HTTP/1.1 is")
        default: throw RejectedRequest(400, "the request line is not METHOD TARGET HTTP/1.1")
        }
        var target = String(decoding: parts[1], as: UTF8.self)
        // An absolute target (as proxies send): its path and query.
        if !target.hasPrefix("/"), target.lowercased().hasPrefix("http://") || target.lowercased().hasPrefix("https://")
        {
            let afterScheme = target[target.index(target.firstIndex(of: ":")!, offsetBy: 3)...]
            let afterHost = afterScheme.firstIndex { $0 == "/" || $0 == "?" }
            target = afterHost.map { target[$0...].hasPrefix("?") ? "/" + target[$0...] : String(target[$0...]) } ?? "/"
        }
        guard target.hasPrefix("/") || target == "*" else {
            throw RejectedRequest(400, "the request target \(target.prefix(80)) is not a path")
        }
        let question = target.firstIndex(of: "?")
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let first = line.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") else {
                throw RejectedRequest(400, "a header field is folded onto the next line or empty")
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy(isTokenByte)
            else {
                throw RejectedRequest(400, "a header field is not NAME: VALUE")
            }
            let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            let trimmed = value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            fields.append(
                (String(decoding: line[..<colon], as: UTF8.self), String(decoding: trimmed, as: UTF8.self)))
        }
        return RequestHead(
            method: String(decoding: parts[0], as: UTF8.self),
            path: question.map { String(target[..<$0]) } ?? target,
            query: question.map { String(target[target.index(after: $0)...]) },
            minorVersion: minorVersion, fields: fields)
    }

    /// The first value of the field `name` (compared without case).
    func field(_ name: String) -> String? {
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
    }

    /// Every value of the field `name` (compared without case), its comma-separated lists split.
    func values(_ name: String) -> [String] {
        let lowered = name.lowercased()
        return fields.filter { $0.name.lowercased() == lowered }.flatMap { $0.value.split(separator: ",") }.map {
            $0.trimmed(where: \.isSpaceOrTab)
        }
    }

    /// RFC 9110's token characters: what a method and a field name are made of.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
