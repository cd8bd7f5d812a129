import PostmortemCore

/// Parses lldb's `p`, `expression` and `frame variable` output, and the Swift REPL's:
/// ```
/// (Fixture.Person) $R0 = {
///   name = "Ada"
///   tags = 2 values {
///     [0] = "math"
///     [1] = "poetry"
///   }
///   origin = (x = 9, y = 12)
/// }
/// (Greeter.Greeter) self = 0x0000000100502920 {
///   acquaintances = ([0] = "Anton")
/// }
/// $R1: [String : Int] = 1 key/value pair {
///   [0] = {
///     key = "a"
///     value = 1
///   }
/// }
/// ```
/// Each variable is `(Type) name = ` (or `name: Type = `), then a value, a summary or both (`0x… {`,
/// `2 values {`), then its children in braces one a line, or on one line in parentheses; `-T` type prefixes on
/// children are read and kept. Several variables (`frame variable` with no names) become the fields of one
/// structure. Ambiguities, resolved as a reader would: children labelled `[0]`, `[1]` … are a list, a dictionary
/// when each is a `key`/`value` pair; a value with children that starts with a pointer is a class instance; a
/// lower-case word with children is an enum case with its payload; a lone word is an enum case, `nil` is nil.
package struct LLDBVariableParser {
    /// Nesting deeper than this is an error, not a stack overflow.
    package static let maximumDepth = 200

    private var cursor: TextCursor

    /// True when the text starts like a variable: `(Type) name = ` or `$R0: Type = `.
    package static func recognizes(_ text: String) -> Bool {
        guard let first = text.leadingLines(5).first(where: { !$0.isEmpty }) else { return false }
        let line = first.drop { $0 == " " }
        if line.hasPrefix("("), let close = line.firstIndex(of: ")") {
            let rest = line[line.index(after: close)...]
            return rest.hasPrefix(" ") && rest.contains(" = ") && !rest.dropFirst().hasPrefix("=")
        }
        return line.firstMatch(of: #/^\$?[A-Za-z_][A-Za-z0-9_]*: [^=]+ = /#) != nil
    }

    /// Reads at most `budget` values; when it runs out, what was read comes back with the rest marked truncated.
    package static func parse(_ text: String, budget: inout ValueBudget) -> ValueNode {
        var parser = LLDBVariableParser(bytes: Array(text.utf8), budget: budget)
        defer { budget = parser.budget }
        var variables: [ValueNode] = []
        while !parser.budget.isExhausted {
            parser.skipBlankLines()
            guard parser.cursor.position < parser.cursor.bytes.count else { break }
            let start = parser.cursor.position
            guard let variable = parser.entry(depth: 0, inline: false) else {
                return ValueNode(kind: .raw, value: text)
            }
            if parser.cursor.position == start { break }
            variables.append(variable)
        }
        if variables.count == 1 { return variables[0] }
        // Text in which no variable starts is kept as it was, as text that does not read at all is.
        if variables.isEmpty { return ValueNode(kind: .raw, value: text) }
        return ValueNode(kind: .structure, children: variables)
    }

    private var budget: ValueBudget

    private init(bytes: [UInt8], budget: ValueBudget) {
        cursor = TextCursor(bytes)
        self.budget = budget
    }

    private mutating func skipSpaces() {
        while cursor.current == 0x20 || cursor.current == 0x09 { cursor.position += 1 }
    }

    private mutating func skipBlankLines() {
        while let byte = cursor.current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            cursor.position += 1
        }
    }

    /// `(Type) name = value`, `name: Type = value` (the REPL's form), or `name = value`.
    private mutating func entry(depth: Int, inline: Bool) -> ValueNode? {
        skipSpaces()
        var typeName: String?
        if cursor.current == UInt8(ascii: "("), let close = matchingParenthesis(from: cursor.position),
            close + 1 < cursor.bytes.count, cursor.bytes[close + 1] == 0x20,
            !cursor.bytes[(close + 1)...].starts(with: " = ".utf8)
        {
            typeName = cursor.text((cursor.position + 1)..<close)
            cursor.position = close + 2
        }
        let nameStart = cursor.position
        while let byte = cursor.current, byte != 0x0A, !cursor.bytes[cursor.position...].starts(with: " = ".utf8) {
            if inline, byte == UInt8(ascii: ",") || byte == UInt8(ascii: ")") { return nil }
            cursor.position += 1
        }
        guard cursor.expect(" = ") else { cursor.position = nameStart; return nil }
        var name = cursor.text(nameStart..<(cursor.position - 3))
        if typeName == nil, let colon = name.firstRange(of: ": ") {
            typeName = String(name[colon.upperBound...])
            name = String(name[..<colon.lowerBound])
        }
        var node = value(depth: depth, inline: inline, typeName: typeName)
        node.label = name
        return node
    }

    /// The index of the `)` that closes the `(` at `start`, on the same line.
    private func matchingParenthesis(from start: Int) -> Int? {
        var depth = 0
        var index = start
        while index < cursor.bytes.count, cursor.bytes[index] != 0x0A {
            if cursor.bytes[index] == UInt8(ascii: "(") { depth += 1 }
            if cursor.bytes[index] == UInt8(ascii: ")") { depth -= 1; if depth == 0 { return index } }
            index += 1
        }
        return nil
    }

    private mutating func value(depth: Int, inline: Bool, typeName: String?) -> ValueNode {
        skipSpaces()
        guard depth < Self.maximumDepth else { return rest(inline: inline) }
        guard budget.spend() else { return ValueNode(kind: .truncated) }
        var head: ValueNode?
        var headText = ""
        if cursor.current == UInt8(ascii: "\"") {
            head = string()
        } else if cursor.current == UInt8(ascii: "(") {
            return group(children: children(depth: depth, inline: true), head: "", typeName: typeName)
        } else if cursor.current != UInt8(ascii: "{") {
            let start = cursor.position
            while let byte = cursor.current, byte != 0x0A {
                if inline, byte == UInt8(ascii: ",") || byte == UInt8(ascii: ")") { break }
                if cursor.bytes[cursor.position...].starts(with: " {".utf8),
                    cursor.position + 2 == cursor.bytes.count || cursor.bytes[cursor.position + 2] == 0x0A
                        || cursor.bytes[cursor.position + 2] == 0x0D
                {
                    break
                }
                // `circle (radius = 2)`: a single word, then its children on one line.
                if cursor.bytes[cursor.position...].starts(with: " (".utf8), !inline,
                    !cursor.bytes[start..<cursor.position].contains(0x20)
                {
                    break
                }
                cursor.position += 1
            }
            headText = cursor.text(start..<cursor.position).trimmed(where: { $0 == " " || $0 == "\r" })
        }
        skipSpaces()
        if cursor.current == UInt8(ascii: "{") {
            return group(children: children(depth: depth, inline: false), head: headText, typeName: typeName)
        }
        if cursor.current == UInt8(ascii: "("), !inline {
            return group(children: children(depth: depth, inline: true), head: headText, typeName: typeName)
        }
        if var head {
            head.typeName = typeName.map(Self.unwrapped)
            return head
        }
        return leaf(headText, typeName: typeName)
    }

    /// Children in braces, one a line (`{` … `}`), or in parentheses on one line (`(a = 1, b = 2)`).
    private mutating func children(depth: Int, inline: Bool) -> [ValueNode] {
        cursor.position += 1
        let close = UInt8(ascii: inline ? ")" : "}")
        var children: [ValueNode] = []
        while true {
            if inline { skipSpaces() } else { skipBlankLines() }
            guard let byte = cursor.current, !(inline && byte == 0x0A) else { return children }
            if byte == close { cursor.position += 1; return children }
            let start = cursor.position
            if let child = entry(depth: depth + 1, inline: inline) {
                children.append(child)
                if budget.isExhausted { return children }
            } else {
                cursor.position = start
                children.append(rest(inline: inline))
            }
            if inline {
                skipSpaces()
                _ = cursor.expect(",")
            }
            if cursor.position == start { cursor.position += 1 }
        }
    }

    /// What the children make: a list, a dictionary, a class instance, an enum case or a structure.
    private func group(children: [ValueNode], head: String, typeName: String?) -> ValueNode {
        let type = typeName.map(Self.unwrapped)
        let indexed =
            !children.isEmpty && children.enumerated().allSatisfy { index, child in child.label == "[\(index)]" }
        if indexed || head.hasSuffix(" values") || head.hasSuffix(" value") || head.hasSuffix(" key/value pairs")
            || head.hasSuffix(" key/value pair")
        {
            let pairs = children.compactMap { pair -> ValueNode? in
                guard let key = pair.child("key"), var value = pair.child("value") else { return nil }
                value.label = key.kind == .string ? key.value : LineRenderer().render(key)
                return value
            }
            if !children.isEmpty, pairs.count == children.count {
                return ValueNode(kind: .dictionary, typeName: type, children: pairs)
            }
            return ValueNode(
                kind: .collection, typeName: type,
                children: children.map { child in
                    var child = child; child.label = nil; return child
                })
        }
        if head.hasPrefix("0x") {
            return ValueNode(kind: .class, typeName: type, summary: nil, children: children)
        }
        if let first = head.first, first.isLowercase, head.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            // `circle { circle = 2 }` or `circle (radius = 2)`: the payload, unwrapped when it repeats the case name.
            var payload = children
            if children.count == 1, children[0].label == head {
                var only = children[0]
                only.label = nil
                payload = only.children.isEmpty ? [only] : only.children
            }
            return ValueNode(kind: .enumeration, typeName: type, value: head, children: payload)
        }
        return ValueNode(kind: .structure, typeName: type, children: children)
    }

    /// A value without children: nil, a number, a boolean, an empty collection's summary, an enum case, a pointer.
    private func leaf(_ text: String, typeName: String?) -> ValueNode {
        let type = typeName.map(Self.unwrapped)
        switch text {
        case "nil", "none": return ValueNode(kind: .null, typeName: type)
        case "true", "false": return ValueNode(kind: .scalar, typeName: type, value: text)
        case "0 values": return ValueNode(kind: .collection, typeName: type)
        case "0 key/value pairs": return ValueNode(kind: .dictionary, typeName: type)
        default: break
        }
        if PlainJSONRenderer.isJSONNumber(text) || Double(text) != nil {
            return ValueNode(kind: .scalar, typeName: type, value: text)
        }
        if let first = text.first, first.isLetter, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            return ValueNode(kind: .enumeration, typeName: type, value: text)
        }
        return ValueNode(kind: .raw, typeName: type, value: text)
    }

    /// A C-style string literal, as lldb prints Swift and C strings.
    private mutating func string() -> ValueNode {
        let start = cursor.position
        cursor.position += 1
        var scalars = String.UnicodeScalarView()
        while let byte = cursor.current {
            if byte == UInt8(ascii: "\"") {
                cursor.position += 1; return ValueNode(kind: .string, value: String(scalars))
            }
            if byte == 0x0A { break }
            if byte == UInt8(ascii: "\\") {
                guard cursor.position + 1 < cursor.bytes.count else { break }
                let escape = cursor.bytes[cursor.position + 1]
                cursor.position += 2
                switch escape {
                case UInt8(ascii: "x"):
                    var digits = ""
                    while let next = cursor.current, digits.count < 2, next.isHexDigit {
                        digits.append(Character(Unicode.Scalar(next))); cursor.position += 1
                    }
                    scalars.append(Unicode.Scalar(UInt8(digits, radix: 16) ?? 0x3F))
                default: scalars.append(TextCursor.unescaped(escape))
                }
                continue
            }
            let runStart = cursor.position
            while let next = cursor.current, next != UInt8(ascii: "\""), next != UInt8(ascii: "\\"), next != 0x0A {
                cursor.position += 1
            }
            scalars.append(contentsOf: cursor.text(runStart..<cursor.position).unicodeScalars)
        }
        cursor.position = start
        return rest(inline: false)
    }

    /// The rest of the line (or of the item, on one line), kept as raw text.
    private mutating func rest(inline: Bool) -> ValueNode {
        let start = cursor.position
        while let byte = cursor.current, byte != 0x0A {
            if inline, byte == UInt8(ascii: ",") || byte == UInt8(ascii: ")") { break }
            cursor.position += 1
        }
        return ValueNode(
            kind: .raw, value: cursor.text(start..<cursor.position).trimmed(where: { $0 == " " || $0 == "\r" }))
    }

    /// `String?` and `Optional<String>` are `String`.
    static func unwrapped(_ typeName: String) -> String {
        if typeName.hasSuffix("?") { return String(typeName.dropLast()) }
        if typeName.hasPrefix("Swift.Optional<"), typeName.hasSuffix(">") {
            return String(typeName.dropFirst(15).dropLast())
        }
        if typeName.hasPrefix("Optional<"), typeName.hasSuffix(">") { return String(typeName.dropFirst(9).dropLast()) }
        return typeName
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
