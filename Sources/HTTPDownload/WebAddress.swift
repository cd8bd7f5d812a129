/// An `http://` or `https://` URL split into what a request needs.
package struct WebAddress: Hashable, Sendable, CustomStringConvertible {
    /// Whether the connection is TLS.
    package var secure: Bool
    /// The host as written, without the brackets of an IPv6 literal.
    package var host: String
    /// The port, the scheme's when none is written.
    package var port: Int
    /// The path and query, at least `/`, without a fragment.
    package var target: String
    /// `user:password` written before the host, sent as Basic authentication.
    package var credentials: String?

    /// Throws the reason when `text` is not an absolute http or https URL.
    package init(_ text: String) throws(HTTPFailure) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if rest.lowercased().hasPrefix("https://") {
            secure = true
            rest = rest.dropFirst("https://".count)
        } else if rest.lowercased().hasPrefix("http://") {
            secure = false
            rest = rest.dropFirst("http://".count)
        } else {
            throw .badURL("not http or https")
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let path = rest[authorityEnd...]
        target = path.isEmpty ? "/" : path.hasPrefix("?") ? "/" + path : String(path)
        guard !target.utf8.contains(where: { $0 == 32 || $0 == 13 || $0 == 10 }) else {
            throw .badURL("a space or line break in its path")
        }
        credentials = nil
        if let at = authority.lastIndex(of: "@") {
            credentials = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        }
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .badURL("an unclosed [ in its host") }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .badURL("text after its IPv6 host") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            portText = authority[authority.index(after: colon)...]
        } else {
            host = String(authority)
        }
        guard !host.isEmpty else { throw .badURL("no host") }
        if let portText, !portText.isEmpty {
            guard let port = Int(portText), (1...65535).contains(port) else {
                throw .badURL("port '\(portText)'")
            }
            self.port = port
        } else {
            port = secure ? 443 : 80
        }
    }

    /// The URL, without credentials.
    package var description: String {
        let scheme = secure ? "https" : "http"
        return "\(scheme)://\(hostField)\(target)"
    }

    /// The `Host` field: the host, bracketed if IPv6, with the port unless it is the scheme's.
    package var hostField: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// The address a `Location` field names, read against this one (RFC 3986's reference resolution).
    package func resolving(_ location: String) throws(HTTPFailure) -> WebAddress {
        let lowered = location.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return try WebAddress(location) }
        if lowered.contains("://") || lowered.hasPrefix("file:") {
            throw .redirects("redirected to \(location), which is neither http nor https")
        }
        let scheme = secure ? "https:" : "http:"
        if location.hasPrefix("//") { return try WebAddress(scheme + location) }
        // The same server: its credentials go on.
        var resolved = self
        var reference = Substring(location)
        if let hash = reference.firstIndex(of: "#") { reference = reference[..<hash] }
        let path = target.prefix { $0 != "?" }
        if reference.hasPrefix("?") {
            resolved.target = String(path + reference)
        } else {
            let query = reference.firstIndex(of: "?").map { reference[$0...] } ?? ""
            let referencePath = reference.prefix { $0 != "?" }
            let merged =
                referencePath.hasPrefix("/")
                ? String(referencePath) : String(path[...(path.lastIndex(of: "/") ?? path.startIndex)] + referencePath)
            resolved.target = Self.removingDotSegments(merged) + query
        }
        return resolved
    }

    /// `path` without its `.` and `..` segments (RFC 3986, 5.2.4); `..` above the root stays at the root.
    private static func removingDotSegments(_ path: String) -> String {
        var segments: [Substring] = []
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            switch part {
            case ".":
                if isLast { segments.append("") }
            case "..":
                if !segments.isEmpty { segments.removeLast() }
                if isLast { segments.append("") }
            default:
                segments.append(part)
            }
        }
        return "/" + segments.joined(separator: "/")
    }
}
