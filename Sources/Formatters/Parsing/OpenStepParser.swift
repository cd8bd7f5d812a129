import PostmortemCore

/// Parses Foundation's descriptions of `NSDictionary` and `NSArray` (OpenStep property-list style):
/// `{ key = value; … }` and `( item, … )`, nested, as Darwin writes them (strings with spaces quoted,
/// `\"` and `\U00e9` escapes) and as Linux's Foundation writes them (dictionary values never quoted).
///
/// Ambiguities, resolved as a reader would: an unquoted dictionary value runs to the `;` that ends its line
/// (so a value may hold `;` and `=` but not `;` before a line break); an unquoted array item runs to the `,`
/// or line break that ends it; a bare number is a number and `true`/`false` are booleans (Darwin prints
/// booleans as 1 and 0, which read as numbers); `<null>` is nil.
package struct OpenStepParser {
    /// Nesting deeper than this is an error, not a stack overflow.
    package static let maximumDepth = 200

    private var cursor: TextCursor
    private var budget: ValueBudget

    /// Whether `text` looks like an old-style (OpenStep) property list: a dictionary of `key = value;` entries, or an array opening with `(` alone on its line (a Swift tuple does not).
    package static func recognizes(_ text: String) -> Bool {
        let trimmed = text.drop { $0.isWhitespace }
        guard let first = trimmed.first else { return false }
        if first == "{" {
            return trimmed.contains(" = ") || trimmed.dropFirst().drop(while: \.isWhitespace).first == "}"
        }
        // An NSArray's description opens with `(` alone on its line; `(x: 1, y: 2)` on one line is a Swift tuple.
        return first == "(" && trimmed.dropFirst().drop { $0 == " " || $0 == "\t" }.first.map(\.isNewline) == true
    }

    /// Reads at most `budget` values; when it runs out, what was read comes back with the rest marked truncated.
    package static func parse(_ text: String, budget: inout ValueBudget) -> ValueNode {
        var parser = OpenStepParser(cursor: TextCursor(text), budget: budget)
        defer { budget = parser.budget }
        parser.cursor.skipWhitespace()
        let node = parser.value(depth: 0, inArray: false)
        parser.cursor.skipWhitespace()
        return parser.cursor.isAtEnd || parser.budget.isExhausted ? node : ValueNode(kind: .raw, value: text)
    }

    private init(cursor: TextCursor, budget: ValueBudget) {
        self.cursor = cursor
        self.budget = budget
    }

    private mutating func value(depth: Int, inArray: Bool) -> ValueNode {
        cursor.skipWhitespace()
        guard cursor.current != nil, depth < Self.maximumDepth else { return rest() }
        guard budget.spend() else { return ValueNode(kind: .truncated) }
        switch cursor.current! {
        case UInt8(ascii: "{"): return dictionary(depth: depth)
        case UInt8(ascii: "("): return array(depth: depth)
        case UInt8(ascii: "\""): return quoted(inKey: false)
        case UInt8(ascii: "<") where cursor.expect("<null>"): return ValueNode(kind: .null)
        case UInt8(ascii: "<"):
            // `<0102 0304>`: data.
            guard let close = cursor.bytes[cursor.position...].firstIndex(of: UInt8(ascii: ">")) else {
                return bare(inArray: inArray)
            }
            let text = cursor.text(cursor.position..<(close + 1))
            cursor.position = close + 1
            return ValueNode(kind: .raw, typeName: "Data", value: text)
        default: return bare(inArray: inArray)
        }
    }

    private mutating func dictionary(depth: Int) -> ValueNode {
        let start = cursor.position
        cursor.position += 1
        var children: [ValueNode] = []
        while true {
            cursor.skipWhitespace()
            guard let byte = cursor.current else { return unclosed(from: start, depth: depth) }
            if byte == UInt8(ascii: "}") {
                cursor.position += 1; return ValueNode(kind: .dictionary, children: children)
            }
            let key: String
            if byte == UInt8(ascii: "\"") {
                key = quoted(inKey: true).value ?? ""
            } else {
                let keyStart = cursor.position
                while let next = cursor.current, next != UInt8(ascii: "="), !cursor.sees(" = ") { cursor.position += 1 }
                key = cursor.text(keyStart..<cursor.position).trimmed(where: \.isSpaceOrTab)
            }
            cursor.skipWhitespace()
            guard cursor.expect("=") else { cursor.position = start; return rest() }
            var child = value(depth: depth + 1, inArray: false)
            child.label = key
            children.append(child)
            if budget.isExhausted { return ValueNode(kind: .dictionary, children: children) }
            cursor.skipWhitespace()
            _ = cursor.expect(";")
        }
    }

    private mutating func array(depth: Int) -> ValueNode {
        let start = cursor.position
        cursor.position += 1
        var children: [ValueNode] = []
        while true {
            cursor.skipWhitespace()
            guard let byte = cursor.current else { return unclosed(from: start, depth: depth) }
            if byte == UInt8(ascii: ")") {
                cursor.position += 1; return ValueNode(kind: .collection, children: children)
            }
            children.append(value(depth: depth + 1, inArray: true))
            if budget.isExhausted { return ValueNode(kind: .collection, children: children) }
            cursor.skipWhitespace()
            _ = cursor.expect(",")
        }
    }

    /// A quoted string. Darwin escapes `"` and `\\` inside quotes; Linux's Foundation escapes nothing, so a `"` ends
    /// the string only where a separator follows it (`,` `;` `)` `}` or a line break, and `=` after a key), and a
    /// backslash is an escape only before `"`, `\\`, `n`, `t`, `r` and `U`.
    private mutating func quoted(inKey: Bool) -> ValueNode {
        cursor.position += 1
        var scalars = String.UnicodeScalarView()
        while let byte = cursor.current {
            if byte == UInt8(ascii: "\""), endsQuotedString(after: cursor.position + 1, inKey: inKey) {
                cursor.position += 1
                return ValueNode(kind: .string, value: String(scalars))
            }
            if byte == UInt8(ascii: "\\"), let escaped = cursor.byte(at: 1), "\"\\ntrUu".utf8.contains(escaped) {
                cursor.position += 2
                switch escaped {
                case UInt8(ascii: "U"), UInt8(ascii: "u"):
                    let end = min(cursor.position + 4, cursor.bytes.count)
                    if end - cursor.position == 4, let code = UInt32(cursor.text(cursor.position..<end), radix: 16),
                        let scalar = Unicode.Scalar(code)
                    {
                        scalars.append(scalar)
                        cursor.position = end
                    } else {
                        scalars.append("\\")
                        scalars.append(Unicode.Scalar(escaped))
                    }
                default: scalars.append(TextCursor.unescaped(escaped))
                }
                continue
            }
            let runStart = cursor.position
            cursor.position += 1
            cursor.skip { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
            scalars.append(contentsOf: cursor.text(runStart..<cursor.position).unicodeScalars)
        }
        return ValueNode(kind: .string, value: String(scalars))
    }

    /// Whether a quote whose next byte is at `offset` is followed (after spaces) by what ends a value.
    private func endsQuotedString(after offset: Int, inKey: Bool) -> Bool {
        var next = offset
        while next < cursor.bytes.count, cursor.bytes[next] == 0x20 || cursor.bytes[next] == 0x09 { next += 1 }
        guard next < cursor.bytes.count else { return true }
        let byte = cursor.bytes[next]
        return ",;)}\n\r".utf8.contains(byte) || (inKey && byte == UInt8(ascii: "="))
    }

    /// An unquoted value: in a dictionary up to the `;` before a line break (or the closing brace), in an
    /// array up to the `,` or line break that ends the item.
    private mutating func bare(inArray: Bool) -> ValueNode {
        let start = cursor.position
        while let byte = cursor.current {
            if inArray {
                if byte == UInt8(ascii: ",") || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ")") { break }
            } else if byte == UInt8(ascii: ";") {
                var next = cursor.position + 1
                while next < cursor.bytes.count, cursor.bytes[next] == 0x20 || cursor.bytes[next] == 0x09 { next += 1 }
                if next >= cursor.bytes.count || [0x0A, 0x0D, UInt8(ascii: "}")].contains(cursor.bytes[next]) { break }
            } else if byte == UInt8(ascii: "}"), cursor.position == start {
                break
            }
            cursor.position += 1
        }
        let text = cursor.text(start..<cursor.position)
        let value = inArray ? text.trimmed(where: \.isSpaceOrTab) : text
        if value == "true" || value == "false" || PlainJSONRenderer.isJSONNumber(value) {
            return ValueNode(kind: .scalar, value: value)
        }
        return ValueNode(kind: .string, value: value)
    }

    /// A dictionary or array still open at the end of the text: every enclosing one is open too, so only the
    /// outermost keeps the text from its start, as raw text.
    private mutating func unclosed(from start: Int, depth: Int) -> ValueNode {
        guard depth == 0 else { return ValueNode(kind: .raw, value: "") }
        cursor.position = start
        return rest()
    }

    private mutating func rest() -> ValueNode {
        let text = cursor.text(cursor.position..<cursor.bytes.count)
        cursor.position = cursor.bytes.count
        return ValueNode(kind: .raw, value: text)
    }
}
