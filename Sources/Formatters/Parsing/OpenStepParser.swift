/// Parses Foundation's descriptions of `NSDictionary` and `NSArray` (OpenStep property-list style):
/// `{ key = value; … }` and `( item, … )`, nested, as Darwin writes them (strings with spaces quoted,
/// `\"` and `\U00e9` escapes) and as Linux's Foundation writes them (dictionary values never quoted).
///
/// Ambiguities, resolved as a reader would: an unquoted dictionary value runs to the `;` that ends its line
/// (so a value may hold `;` and `=` but not `;` before a line break); an unquoted array item runs to the `,`
/// or line break that ends it; a bare number is a number and `true`/`false` are booleans (Darwin prints
/// booleans as 1 and 0, which read as numbers).
public struct OpenStepParser {
    public static let maximumDepth = 200

    private let characters: [Character]
    private var position = 0

    public static func recognizes(_ text: String) -> Bool {
        let trimmed = text.drop { $0.isWhitespace }
        guard let first = trimmed.first else { return false }
        if first == "{" { return trimmed.contains(" = ") || trimmed.dropFirst().drop(while: \.isWhitespace).first == "}" }
        return first == "(" && (trimmed.hasSuffix(")") || trimmed.contains("\n"))
    }

    public static func parse(_ text: String) -> ValueNode {
        var parser = OpenStepParser(characters: Array(text))
        parser.skip()
        let node = parser.value(depth: 0, inArray: false)
        parser.skip()
        return parser.position < parser.characters.count ? ValueNode(kind: .raw, value: text) : node
    }

    private init(characters: [Character]) { self.characters = characters }

    private var current: Character? { position < characters.count ? characters[position] : nil }

    private mutating func skip() {
        while let character = current, character.isWhitespace { position += 1 }
    }

    private mutating func value(depth: Int, inArray: Bool) -> ValueNode {
        skip()
        guard let first = current, depth < Self.maximumDepth else { return ValueNode(kind: .raw, value: String(characters[position...])) }
        switch first {
        case "{": return dictionary(depth: depth)
        case "(": return array(depth: depth)
        case "\"": return quoted(inKey: false)
        case "<" where characters[position...].starts(with: Array("<null>")):
            position += 6
            return ValueNode(kind: .null)
        case "<":
            // `<0102 0304>`: data.
            guard let close = characters[position...].firstIndex(of: ">") else { return bare(inArray: inArray) }
            let text = String(characters[position...close])
            position = close + 1
            return ValueNode(kind: .raw, typeName: "Data", value: text)
        default: return bare(inArray: inArray)
        }
    }

    private mutating func dictionary(depth: Int) -> ValueNode {
        let start = position
        position += 1
        var children: [ValueNode] = []
        while true {
            skip()
            guard let character = current else { position = start; return rest() }
            if character == "}" { position += 1; return ValueNode(kind: .dictionary, children: children) }
            let key: String
            if character == "\"" {
                key = quoted(inKey: true).value ?? ""
            } else {
                var text = ""
                while let next = current, !(next == " " && characters[position...].starts(with: [" ", "=", " "])), next != "=" {
                    text.append(next)
                    position += 1
                }
                key = text.trimmed(where: \.isSpaceOrTab)
            }
            skip()
            guard current == "=" else { position = start; return rest() }
            position += 1
            var child = value(depth: depth + 1, inArray: false)
            child.label = key
            children.append(child)
            skip()
            if current == ";" { position += 1 }
        }
    }

    private mutating func array(depth: Int) -> ValueNode {
        let start = position
        position += 1
        var children: [ValueNode] = []
        while true {
            skip()
            guard let character = current else { position = start; return rest() }
            if character == ")" { position += 1; return ValueNode(kind: .collection, children: children) }
            children.append(value(depth: depth + 1, inArray: true))
            skip()
            if current == "," { position += 1 }
        }
    }

    /// A quoted string. Darwin escapes `"` and `\\` inside quotes; Linux's Foundation escapes nothing, so a `"` ends
    /// the string only where a separator follows it (`,` `;` `)` `}` or a line break, and `=` after a key), and a
    /// backslash is an escape only before `"`, `\\`, `n`, `t`, `r` and `U`.
    private mutating func quoted(inKey: Bool) -> ValueNode {
        position += 1
        var text = ""
        while let character = current {
            position += 1
            if character == "\"", endsQuotedString(inKey: inKey) { return ValueNode(kind: .string, value: text) }
            guard character == "\\", let escaped = current, "\"\\ntrUu".contains(escaped) else { text.append(character); continue }
            position += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "U", "u":
                let digits = String(characters[position..<min(position + 4, characters.count)])
                if digits.count == 4, let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) {
                    text.unicodeScalars.append(scalar)
                    position += 4
                } else {
                    text.append("\\")
                    text.append(escaped)
                }
            default: text.append(escaped)
            }
        }
        return ValueNode(kind: .string, value: text)
    }

    /// Whether the quote just read is followed (after spaces) by what ends a value.
    private func endsQuotedString(inKey: Bool) -> Bool {
        var next = position
        while next < characters.count, characters[next] == " " || characters[next] == "\t" { next += 1 }
        guard next < characters.count else { return true }
        let character = characters[next]
        return ",;)}\n\r\r\n".contains(character) || (inKey && character == "=")
    }

    /// An unquoted value: in a dictionary up to the `;` before a line break (or the closing brace), in an
    /// array up to the `,` or line break that ends the item.
    private mutating func bare(inArray: Bool) -> ValueNode {
        var text = ""
        while let character = current {
            if inArray {
                if character == "," || character == "\n" || character == ")" { break }
            } else if character == ";" {
                var next = position + 1
                while next < characters.count, characters[next] == " " || characters[next] == "\t" { next += 1 }
                if next >= characters.count || characters[next] == "\n" || characters[next] == "\r\n" || characters[next] == "}" { break }
            } else if character == "}", text.isEmpty {
                break
            }
            text.append(character)
            position += 1
        }
        let value = inArray ? text.trimmed(where: \.isSpaceOrTab) : text
        if value == "true" || value == "false" || PlainJSONRenderer.isJSONNumber(value) { return ValueNode(kind: .scalar, value: value) }
        return ValueNode(kind: .string, value: value)
    }

    private mutating func rest() -> ValueNode {
        let text = String(characters[position...])
        position = characters.count
        return ValueNode(kind: .raw, value: text)
    }
}
