import PostmortemCore

/// Parses what Swift's `print` and `debugPrint` write: `Type(label: value, …)`, `[a, b]`, `["k": v]`, `[:]`,
/// `Optional(x)`, `Set([…])`, `nil`, string literals with escapes, numbers, booleans, `.case(payload)`, tuples.
/// Anything else is kept as raw text up to the next separator at the same depth, never dropped.
///
/// Ambiguities, resolved as a reader would: `Module.Type.name(…)` whose last part starts in lower case is an
/// enum case with a payload, otherwise a structure or class; an unquoted word is a scalar (a number when it
/// reads as one).
package struct SwiftPrintParser {
    /// Deeper nesting is kept as raw text instead of recursing further.
    package static let maximumDepth = 200

    private var cursor: TextCursor
    private var budget: ValueBudget
    /// Set when a bracket or parenthesis is still open at the end of the text: every enclosing one is open too,
    /// so they give up at once instead of each scanning the rest of the text again.
    private var unclosedAtEnd = false

    /// The value the whole text holds; text that cannot be read whole is kept as one raw value.
    package static func parse(_ text: String) -> ValueNode {
        var budget = ValueBudget()
        return parse(text, budget: &budget)
    }

    /// Reads at most `budget` values; when it runs out, what was read comes back with the rest marked truncated.
    package static func parse(_ text: String, budget: inout ValueBudget) -> ValueNode {
        var parser = SwiftPrintParser(cursor: TextCursor(text), budget: budget)
        defer { budget = parser.budget }
        parser.cursor.skipWhitespace()
        let node = parser.value(depth: 0)
        parser.cursor.skipWhitespace()
        if parser.budget.isExhausted { return node }
        if parser.unclosedAtEnd || !parser.cursor.isAtEnd {
            return ValueNode(kind: .raw, value: text.trimmed(where: { $0.isSpaceOrTab || $0.isNewline }))
        }
        return node
    }

    private init(cursor: TextCursor, budget: ValueBudget) {
        self.cursor = cursor
        self.budget = budget
    }

    /// Whether a child's reading ended the container's: the budget ran out or the text ended unclosed.
    private var mustStop: Bool { budget.isExhausted || unclosedAtEnd }

    mutating func value(depth: Int) -> ValueNode {
        cursor.skipWhitespace()
        guard let first = cursor.current else { return ValueNode(kind: .raw, value: "") }
        guard budget.spend() else { return ValueNode(kind: .truncated) }
        guard depth < Self.maximumDepth else { return raw() }
        if first == UInt8(ascii: "\"") { return string() }
        if first == UInt8(ascii: "[") { return bracketed(depth: depth) }
        if first == UInt8(ascii: "(") { return parenthesised(typeName: nil, depth: depth) }
        let start = cursor.position
        let word = identifierPath()
        if word.isEmpty { cursor.position = start; return raw() }
        if cursor.current == UInt8(ascii: "(") {
            let lastPart = word.split(separator: ".").last.map(String.init) ?? word
            if word == "Optional" {
                cursor.position += 1
                let inner = value(depth: depth + 1)
                if mustStop { return ValueNode(kind: .optional, children: [inner]) }
                cursor.skipWhitespace()
                guard cursor.expect(")") else { return failed(from: start) }
                return ValueNode(kind: .optional, children: [inner])
            }
            let arguments = parenthesised(typeName: nil, depth: depth)
            // Arguments that do not close make the whole `Name(…` raw text.
            if arguments.kind == .raw, !mustStop { cursor.position = start; return raw() }
            var node = arguments
            if lastPart == "Set" || word.hasPrefix("Set<") || word.hasPrefix("Swift.Set<") {
                // `Set(["a", "b"])`.
                if arguments.children.count == 1, arguments.children[0].kind == .collection {
                    return ValueNode(kind: .set, children: arguments.children[0].children)
                }
                return arguments
            }
            if lastPart.first?.isLowercase == true {
                node.kind = .enumeration
                node.value = lastPart
                node.typeName = word.split(separator: ".").dropLast().joined(separator: ".")
                if node.typeName?.isEmpty == true { node.typeName = nil }
                return node
            }
            node.kind = .structure
            node.typeName = word
            return node
        }
        switch word {
        case "nil": return ValueNode(kind: .null)
        case "true", "false": return ValueNode(kind: .scalar, value: word)
        default:
            if word.hasPrefix(".")
                || (word.contains(".") && word.split(separator: ".").last?.first?.isLowercase == true
                    && Double(word) == nil)
            {
                let name = word.split(separator: ".").last.map(String.init) ?? word
                return ValueNode(kind: .enumeration, value: name)
            }
            return ValueNode(kind: .scalar, value: word)
        }
    }

    /// A word made of identifier characters, dots, digits, signs and generic brackets (`Swift.Array<Int>`, `-1.5e-05`).
    private mutating func identifierPath() -> String {
        let start = cursor.position
        var angle = 0
        while let byte = cursor.current {
            // `<` opens generic arguments only after a name: `<Widget: 0x600>` is not a word.
            if byte == UInt8(ascii: "<") {
                if cursor.position == start { break }
                angle += 1
            } else if byte == UInt8(ascii: ">") {
                if angle == 0 { break }
                angle -= 1
            } else if angle == 0 {
                guard
                    TextCursor.isIdentifier(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: "+")
                else { break }
            } else if byte == 0x0A {
                break
            }
            cursor.position += 1
        }
        return cursor.text(start..<cursor.position)
    }

    private mutating func string() -> ValueNode {
        let start = cursor.position
        cursor.position += 1
        var scalars = String.UnicodeScalarView()
        while let byte = cursor.current {
            if byte == UInt8(ascii: "\"") {
                cursor.position += 1
                return ValueNode(kind: .string, value: String(scalars))
            }
            guard byte == UInt8(ascii: "\\"), let escaped = cursor.byte(at: 1) else {
                let runStart = cursor.position
                cursor.skip { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
                if cursor.position == runStart { cursor.position += 1 }
                scalars.append(contentsOf: cursor.text(runStart..<cursor.position).unicodeScalars)
                continue
            }
            cursor.position += 2
            switch escaped {
            case UInt8(ascii: "u"):
                // \u{1F600}
                let digitsStart = cursor.position + 1
                guard cursor.current == UInt8(ascii: "{"),
                    let close = cursor.bytes[digitsStart..<min(digitsStart + 9, cursor.bytes.count)].firstIndex(
                        of: UInt8(ascii: "}")),
                    let code = UInt32(cursor.text(digitsStart..<close), radix: 16), let scalar = Unicode.Scalar(code)
                else {
                    scalars.append("\\")
                    scalars.append("u")
                    continue
                }
                scalars.append(scalar)
                cursor.position = close + 1
            default:
                // `\n`, `\t`, `\"`, `\\`, `\'` …; before a non-ASCII character the backslash is dropped and the character kept.
                if escaped < 0x80 { scalars.append(TextCursor.unescaped(escaped)) } else { cursor.position -= 1 }
            }
        }
        cursor.position = start
        return raw()
    }

    /// `[a, b]`, `[k: v, …]` or `[:]`.
    private mutating func bracketed(depth: Int) -> ValueNode {
        let start = cursor.position
        cursor.position += 1
        cursor.skipWhitespace()
        if cursor.expect(":") {
            cursor.skipWhitespace()
            if cursor.expect("]") { return ValueNode(kind: .dictionary) }
            return failed(from: start)
        }
        if cursor.expect("]") { return ValueNode(kind: .collection) }
        var items: [ValueNode] = []
        var isDictionary = false
        while true {
            var item = value(depth: depth + 1)
            if mustStop { items.append(item); break }
            cursor.skipWhitespace()
            if cursor.expect(":") {
                isDictionary = true
                let key = item
                item = value(depth: depth + 1)
                item.label = key.kind == .string ? key.value : LineRenderer().render(key)
                if mustStop { items.append(item); break }
                cursor.skipWhitespace()
            }
            items.append(item)
            if cursor.expect(",") { continue }
            if cursor.expect("]") { break }
            return failed(from: start)
        }
        return ValueNode(kind: isDictionary ? .dictionary : .collection, children: items)
    }

    /// `(label: value, value, …)`, the argument list of a type, enum case or tuple.
    private mutating func parenthesised(typeName: String?, depth: Int) -> ValueNode {
        let start = cursor.position
        cursor.position += 1
        var children: [ValueNode] = []
        cursor.skipWhitespace()
        if cursor.expect(")") { return ValueNode(kind: .tuple, typeName: typeName) }
        while true {
            cursor.skipWhitespace()
            let itemStart = cursor.position
            var childLabel: String?
            let word = identifierPath()
            cursor.skipWhitespace()
            if !word.isEmpty, cursor.current == UInt8(ascii: ":"), !word.contains(".") {
                cursor.position += 1
                childLabel = word
            } else {
                cursor.position = itemStart
            }
            cursor.skipWhitespace()
            let valueStart = cursor.position
            var child = value(depth: depth + 1)
            if !mustStop {
                cursor.skipWhitespace()
                if let next = cursor.current, next != UInt8(ascii: ","), next != UInt8(ascii: ")") {
                    // A description that is no literal (`url: https://example.com/a?b=1`): its text up to the next
                    // separator, kept as written.
                    cursor.position = valueStart
                    child = raw()
                }
            }
            child.label = childLabel ?? ".\(children.count)"
            children.append(child)
            if mustStop { break }
            cursor.skipWhitespace()
            if cursor.expect(",") { continue }
            if cursor.expect(")") { break }
            return failed(from: start)
        }
        return ValueNode(kind: .tuple, typeName: typeName, children: children)
    }

    /// A bracket or parenthesis that does not close: raw text from `start`, or, at the end of the text, a marker
    /// that makes every enclosing one give up too.
    private mutating func failed(from start: Int) -> ValueNode {
        if cursor.isAtEnd {
            unclosedAtEnd = true
            return ValueNode(kind: .raw, value: "")
        }
        cursor.position = start
        return raw()
    }

    /// Text up to the next `,`, `)` or `]` at this depth, kept as it is.
    private mutating func raw() -> ValueNode {
        let start = cursor.position
        var depth = 0
        var inString = false
        while let byte = cursor.current {
            if inString {
                cursor.position += 1
                if byte == UInt8(ascii: "\\") {
                    if !cursor.isAtEnd { cursor.position += 1 }
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            if depth == 0, byte == UInt8(ascii: ",") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") { break }
            if byte == UInt8(ascii: "\"") { inString = true }
            if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { depth -= 1 }
            cursor.position += 1
        }
        return ValueNode(kind: .raw, value: cursor.text(start..<cursor.position).trimmed(where: { $0 == " " }))
    }
}
