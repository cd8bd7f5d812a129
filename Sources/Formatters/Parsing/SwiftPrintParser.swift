/// Parses what Swift's `print` and `debugPrint` write: `Type(label: value, …)`, `[a, b]`, `["k": v]`, `[:]`,
/// `Optional(x)`, `nil`, string literals with escapes, numbers, booleans, `.case(payload)`, tuples.
/// Anything else is kept as raw text up to the next separator at the same depth, never dropped.
///
/// Ambiguities, resolved as a reader would: `Module.Type.name(…)` whose last part starts in lower case is an
/// enum case with a payload, otherwise a structure or class; an unquoted word is a scalar (a number when it
/// reads as one).
public struct SwiftPrintParser {
    /// Deeper nesting is kept as raw text instead of recursing further.
    public static let maximumDepth = 200

    private let characters: [Character]
    private var position = 0

    public init(_ text: String) {
        characters = Array(text)
    }

    /// The value the whole text holds; trailing text becomes a raw sibling inside a tuple when present.
    public static func parse(_ text: String) -> ValueNode {
        var parser = SwiftPrintParser(text.trimmed(where: { $0.isSpaceOrTab || $0.isNewline }))
        let node = parser.value(depth: 0)
        parser.skipSpaces()
        if parser.position < parser.characters.count {
            return ValueNode(kind: .raw, value: String(parser.characters))
        }
        return node
    }

    private mutating func skipSpaces() {
        while position < characters.count, characters[position] == " " || characters[position] == "\n" || characters[position] == "\t" { position += 1 }
    }

    private var current: Character? { position < characters.count ? characters[position] : nil }

    mutating func value(depth: Int) -> ValueNode {
        skipSpaces()
        guard let first = current else { return ValueNode(kind: .raw, value: "") }
        guard depth < Self.maximumDepth else { return raw() }
        if first == "\"" { return string() }
        if first == "[" { return bracketed(depth: depth) }
        if first == "(" { return parenthesised(label: nil, typeName: nil, depth: depth) }
        let start = position
        let word = identifierPath()
        if word.isEmpty { position = start; return raw() }
        if current == "(" {
            if word == "Optional" {
                position += 1
                let inner = value(depth: depth + 1)
                skipSpaces()
                if current == ")" { position += 1 } else { position = start; return raw() }
                return ValueNode(kind: .optional, children: [inner])
            }
            let lastPart = word.split(separator: ".").last.map(String.init) ?? word
            if lastPart == "Set" || word.hasPrefix("Set<") || word.hasPrefix("Swift.Set<") {
                // `Set(["a", "b"])`.
                let arguments = parenthesised(label: nil, typeName: nil, depth: depth)
                guard arguments.kind != .raw else { position = start; return raw() }
                if arguments.children.count == 1, arguments.children[0].kind == .collection {
                    return ValueNode(kind: .set, children: arguments.children[0].children)
                }
                return arguments
            }
            let arguments = parenthesised(label: nil, typeName: nil, depth: depth)
            // Arguments that do not close make the whole `Name(…` raw text.
            guard arguments.kind != .raw else { position = start; return raw() }
            if lastPart.first?.isLowercase == true {
                var node = arguments
                node.kind = .enumeration
                node.value = lastPart
                node.typeName = word.split(separator: ".").dropLast().joined(separator: ".")
                if node.typeName?.isEmpty == true { node.typeName = nil }
                return node
            }
            var node = arguments
            node.kind = .structure
            node.typeName = word
            return node
        }
        switch word {
        case "nil": return ValueNode(kind: .null)
        case "true", "false": return ValueNode(kind: .scalar, value: word)
        default:
            if word.hasPrefix(".") || (word.contains(".") && word.split(separator: ".").last?.first?.isLowercase == true && Double(word) == nil) {
                let name = word.split(separator: ".").last.map(String.init) ?? word
                return ValueNode(kind: .enumeration, value: name)
            }
            return ValueNode(kind: .scalar, value: word)
        }
    }

    /// A word made of identifier characters, dots, digits, signs and generic brackets (`Swift.Array<Int>`, `-1.5e-05`).
    private mutating func identifierPath() -> String {
        var word = ""
        var angle = 0
        while let character = current {
            // `<` opens generic arguments only after a name: `<Widget: 0x600>` is not a word.
            if character == "<", word.isEmpty { break }
            if character == "<" { angle += 1 } else if character == ">" { if angle == 0 { break }; angle -= 1 } else if angle == 0 {
                guard character.isLetter || character.isNumber || character == "_" || character == "." || character == "-" || character == "+" else { break }
            }
            word.append(character)
            position += 1
        }
        return word
    }

    private mutating func string() -> ValueNode {
        let start = position
        position += 1
        var text = ""
        while let character = current {
            position += 1
            if character == "\"" { return ValueNode(kind: .string, value: text) }
            guard character == "\\", let escaped = current else { text.append(character); continue }
            position += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            case "u":
                // \u{1F600}
                guard current == "{", let close = characters[position...].firstIndex(of: "}"),
                      let code = UInt32(String(characters[(position + 1)..<close]), radix: 16), let scalar = Unicode.Scalar(code) else {
                    text.append("\\u")
                    continue
                }
                text.unicodeScalars.append(scalar)
                position = close + 1
            default: text.append(escaped)
            }
        }
        position = start
        return raw()
    }

    /// `[a, b]`, `[k: v, …]` or `[:]`.
    private mutating func bracketed(depth: Int) -> ValueNode {
        let start = position
        position += 1
        skipSpaces()
        if current == ":" {
            position += 1
            skipSpaces()
            if current == "]" { position += 1; return ValueNode(kind: .dictionary) }
            position = start
            return raw()
        }
        if current == "]" { position += 1; return ValueNode(kind: .collection) }
        var items: [ValueNode] = []
        var isDictionary = false
        while true {
            var item = value(depth: depth + 1)
            skipSpaces()
            if current == ":" {
                position += 1
                isDictionary = true
                let key = item
                item = value(depth: depth + 1)
                item.label = key.kind == .string ? key.value : LineRenderer().render(key)
                skipSpaces()
            }
            items.append(item)
            if current == "," { position += 1; continue }
            if current == "]" { position += 1; break }
            position = start
            return raw()
        }
        return ValueNode(kind: isDictionary ? .dictionary : .collection, children: items)
    }

    /// `(label: value, value, …)`, the argument list of a type, enum case or tuple.
    private mutating func parenthesised(label: String?, typeName: String?, depth: Int) -> ValueNode {
        let start = position
        position += 1
        var children: [ValueNode] = []
        skipSpaces()
        if current == ")" { position += 1; return ValueNode(kind: .tuple, typeName: typeName, label: label) }
        while true {
            skipSpaces()
            let itemStart = position
            var childLabel: String?
            let word = identifierPath()
            skipSpaces()
            if !word.isEmpty, current == ":", !word.contains(".") {
                position += 1
                childLabel = word
            } else {
                position = itemStart
            }
            var child = value(depth: depth + 1)
            child.label = childLabel ?? ".\(children.count)"
            children.append(child)
            skipSpaces()
            if current == "," { position += 1; continue }
            if current == ")" { position += 1; break }
            position = start
            return raw()
        }
        return ValueNode(kind: .tuple, typeName: typeName, label: label, children: children)
    }

    /// Text up to the next `,`, `)` or `]` at this depth, kept as it is.
    private mutating func raw() -> ValueNode {
        var text = ""
        var depth = 0
        var inString = false
        while let character = current {
            if inString {
                text.append(character)
                position += 1
                if character == "\\", let next = current { text.append(next); position += 1 } else if character == "\"" { inString = false }
                continue
            }
            if depth == 0, character == "," || character == ")" || character == "]" { break }
            if character == "\"" { inString = true }
            if "([{".contains(character) { depth += 1 }
            if ")]}".contains(character) { depth -= 1 }
            text.append(character)
            position += 1
        }
        return ValueNode(kind: .raw, value: text.trimmed(where: { $0 == " " }))
    }
}
