import PostmortemCore

/// Parses XML property lists (`<plist><dict><key>…</key><string>…</string>…</dict></plist>`), as
/// `PropertyListEncoder`, `plutil -convert xml1` and Xcode write them: `dict`, `array`, `string`, `integer`,
/// `real`, `true`, `false`, `date` (kept as its text), `data` (kept as its base64 text), empty elements, the five
/// XML entities and numeric character references. The string `$null` is `nil`, as Foundation's coders write it.
/// Malformed XML is an error that says where.
package struct PropertyListXMLParser {
    /// Nesting deeper than this is an error, not a stack overflow.
    package static let maximumDepth = 512

    /// Why the text is not an XML property list this parser reads, and where.
    package struct Failure: Error, CustomStringConvertible {
        /// The byte offset where reading stopped.
        package var offset: Int
        /// What is wrong there.
        package var reason: String
        /// The reason with its offset, in one line.
        package var description: String { "property list at byte \(offset): \(reason)" }
    }

    private var cursor: TextCursor

    /// True when the text is an XML property list (`<?xml` … `<plist`, or `<plist` itself).
    package static func recognizes(_ text: String) -> Bool {
        let start = text.utf8.drop {
            $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF
        }
        return start.starts(with: "<plist".utf8)
            || start.starts(with: "<?xml".utf8) && start.prefix(512).firstRange(of: "<plist".utf8) != nil
    }

    /// Reads at most `budget` values; when it runs out, what was read comes back with the rest marked truncated
    /// (the text after that point is not checked).
    package static func parse(_ text: String, budget: inout ValueBudget) throws(Failure) -> ValueNode {
        var parser = PropertyListXMLParser(bytes: Array(text.utf8), budget: budget)
        defer { budget = parser.budget }
        parser.skipProlog()
        let hasPlistElement = parser.cursor.expect("<plist")
        if hasPlistElement {
            guard let close = parser.cursor.bytes[parser.cursor.position...].firstIndex(of: UInt8(ascii: ">")) else {
                throw parser.failure("an unterminated <plist> tag")
            }
            parser.cursor.position = close + 1
        }
        parser.skipMisc()
        let node = try parser.value(depth: 0)
        if parser.budget.isExhausted { return node }
        parser.skipMisc()
        if hasPlistElement, !parser.cursor.expect("</plist>") { throw parser.failure("expected </plist>") }
        parser.skipMisc()
        guard parser.cursor.position == parser.cursor.bytes.count else {
            throw parser.failure("text after the property list")
        }
        return node
    }

    private var budget: ValueBudget

    private init(bytes: [UInt8], budget: ValueBudget) {
        cursor = TextCursor(bytes)
        self.budget = budget
    }

    private func failure(_ reason: String) -> Failure { Failure(offset: cursor.position, reason: reason) }

    /// Whitespace and comments.
    private mutating func skipMisc() {
        while true {
            cursor.skipWhitespace()
            guard cursor.bytes[cursor.position...].starts(with: "<!--".utf8),
                let end = cursor.bytes[cursor.position...].firstRange(of: "-->".utf8)
            else { return }
            cursor.position = end.upperBound
        }
    }

    /// A byte-order mark, `<?xml …?>`, `<!DOCTYPE …>` and comments.
    private mutating func skipProlog() {
        if cursor.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { cursor.position = 3 }
        while true {
            skipMisc()
            if cursor.bytes[cursor.position...].starts(with: "<?".utf8),
                let end = cursor.bytes[cursor.position...].firstRange(of: "?>".utf8)
            {
                cursor.position = end.upperBound; continue
            }
            if cursor.bytes[cursor.position...].starts(with: "<!DOCTYPE".utf8),
                let end = cursor.bytes[cursor.position...].firstIndex(of: UInt8(ascii: ">"))
            {
                cursor.position = end + 1; continue
            }
            return
        }
    }

    /// `<name>` or `<name/>`: the name and whether the element is empty.
    private mutating func openTag() throws(Failure) -> (name: String, empty: Bool) {
        guard cursor.expect("<"), let close = cursor.bytes[cursor.position...].firstIndex(of: UInt8(ascii: ">")) else {
            throw failure("expected an element")
        }
        var name = String(decoding: cursor.bytes[cursor.position..<close], as: UTF8.self)
        cursor.position = close + 1
        let empty = name.hasSuffix("/")
        if empty { name.removeLast() }
        return (String(name.prefix { $0 != " " }), empty)
    }

    /// The text up to `</name>`, entities decoded.
    private mutating func content(of name: String) throws(Failure) -> String {
        guard let end = cursor.bytes[cursor.position...].firstRange(of: "</\(name)>".utf8) else {
            throw failure("no </\(name)>")
        }
        let text = Self.decodeEntities(String(decoding: cursor.bytes[cursor.position..<end.lowerBound], as: UTF8.self))
        cursor.position = end.upperBound
        return text
    }

    private mutating func value(depth: Int) throws(Failure) -> ValueNode {
        guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth)") }
        guard budget.spend() else { return ValueNode(kind: .truncated) }
        let start = cursor.position
        let (name, empty) = try openTag()
        switch name {
        case "dict":
            guard !empty else { return ValueNode(kind: .dictionary) }
            var children: [ValueNode] = []
            while true {
                skipMisc()
                if cursor.expect("</dict>") { return ValueNode(kind: .dictionary, children: children) }
                let keyStart = cursor.position
                let (keyName, keyEmpty) = try openTag()
                guard keyName == "key" else { cursor.position = keyStart; throw failure("expected <key>") }
                let key = keyEmpty ? "" : try content(of: "key")
                skipMisc()
                var child = try value(depth: depth + 1)
                child.label = key
                children.append(child)
                if budget.isExhausted { return ValueNode(kind: .dictionary, children: children) }
            }
        case "array":
            guard !empty else { return ValueNode(kind: .collection) }
            var children: [ValueNode] = []
            while true {
                skipMisc()
                if cursor.expect("</array>") { return ValueNode(kind: .collection, children: children) }
                children.append(try value(depth: depth + 1))
                if budget.isExhausted { return ValueNode(kind: .collection, children: children) }
            }
        case "true", "false":
            if !empty { _ = try content(of: name) }
            return ValueNode(kind: .scalar, value: name)
        case "string":
            let text = empty ? "" : try content(of: name)
            return text == "$null" ? ValueNode(kind: .null) : ValueNode(kind: .string, value: text)
        case "integer", "real":
            let text = (empty ? "" : try content(of: name)).trimmed(where: { $0.isWhitespace })
            if PlainJSONRenderer.isJSONNumber(text) { return ValueNode(kind: .scalar, value: text) }
            // `+3`, `1.`, `nan`, `inf`: numbers as Foundation reads them, spelled as Swift prints them.
            guard let number = Double(text) else { cursor.position = start; throw failure("'\(text)' is not a number") }
            return ValueNode(kind: .scalar, value: number.isFinite ? SwiftLiteral.shortest(number) : text)
        case "date": return ValueNode(kind: .string, typeName: "Date", value: empty ? "" : try content(of: name))
        case "data":
            let text = empty ? "" : try content(of: name)
            return ValueNode(kind: .string, typeName: "Data", value: String(text.filter { !$0.isWhitespace }))
        default:
            cursor.position = start
            throw failure("<\(name)> is not a property-list element")
        }
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#NN;` and `&#xNN;`.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest[rest.index(after: ampersand)...]
                continue
            }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let code =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let code, let scalar = Unicode.Scalar(code) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "&" + entity + ";"
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
