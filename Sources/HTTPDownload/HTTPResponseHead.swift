import PostmortemCore

/// A response's status line and header fields.
package struct HTTPResponseHead: Sendable {
    /// The status code.
    package var status: Int
    /// The reason phrase, as sent.
    package var reason: String
    /// The header fields in their order, names as sent.
    package var fields: [(name: String, value: String)]
    /// Whether the status line said HTTP/1.1 (whose connections stay open unless a field says otherwise).
    var isHTTP11: Bool

    /// The first field named `name` (compared without case).
    package func field(_ name: String) -> String? {
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
    }

    /// Every field named `name`, in order.
    func fields(named name: String) -> [String] {
        let lowered = name.lowercased()
        return fields.filter { $0.name.lowercased() == lowered }.map(\.value)
    }

    /// Reads a head from `bytes`, the lines up to and without the empty line that ends it.
    init(parsing bytes: ArraySlice<UInt8>) throws(HTTPFailure) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        guard !lines.isEmpty else { throw .badResponse("no status line") }
        let statusLine = String(decoding: lines.removeFirst(), as: UTF8.self)
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]),
            status >= 100
        else {
            throw .badResponse("status line '\(statusLine.prefix(80))'")
        }
        self.status = status
        isHTTP11 = parts[0] == "HTTP/1.1"
        reason = parts.count > 2 ? String(parts[2]) : ""
        fields = []
        for line in lines where !line.isEmpty {
            let text = String(decoding: line, as: UTF8.self)
            // A folded line continues the field before it (obsolete, still sent by old servers).
            if text.first == " " || text.first == "\t" {
                guard !fields.isEmpty else { throw .badResponse("a folded line before any field") }
                fields[fields.count - 1].value += " " + text.trimmed(where: \.isSpaceOrTab)
                continue
            }
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
                !text[..<colon].contains(where: { $0 == " " || $0 == "\t" })
            else {
                throw .badResponse("header line '\(text.prefix(80))'")
            }
            fields.append((String(text[..<colon]), text[text.index(after: colon)...].trimmed(where: \.isSpaceOrTab)))
        }
    }
}
