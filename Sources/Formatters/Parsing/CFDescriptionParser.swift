/// Parses CoreFoundation's descriptions, as `CFShow`, `CFCopyDescription` and Xcode's "Print Description" of a
/// CFDictionary write them:
/// ```
/// <CFBasicHash 0x600 [0x7f00]>{type = mutable dict, count = 2,
/// entries =>
/// 	0 : <CFString 0x610 [0x7f00]>{contents = "name"} = <CFString 0x620 [0x7f00]>{contents = "Ada"}
/// 	1 : <CFString 0x630 [0x7f00]>{contents = "tags"} = <CFArray 0x640 [0x7f00]>{type = mutable-small, count = 1, values = (
/// 	0 : <CFNumber 0x650 [0x7f00]>{value = +3, type = kCFNumberSInt32Type}
/// )}
/// }
/// ```
/// Dictionaries keep CoreFoundation's (hash) order. Numbers lose CoreFoundation's padding (`+3` is 3,
/// `-1.25000000000000000000` is -1.25). A string's contents run to the `"}` that closes them (CoreFoundation does
/// not escape quotes), so a string holding `"}` followed by ` = ` or a line break is cut there. The string `$null`
/// is `nil`, as Foundation's property-list coders write it. Objects this parser does not know are kept as raw text.
package struct CFDescriptionParser {
    /// Nesting deeper than this is an error, not a stack overflow.
    package static let maximumDepth = 200

    private var cursor: TextCursor

    /// True when the text starts with a CoreFoundation object description (`<CFBasicHash 0x…`, `<CFArray 0x…`).
    package static func recognizes(_ text: String) -> Bool {
        let start = text.utf8.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
        return start.starts(with: "<CF".utf8) || start.starts(with: "<__NSCF".utf8)
    }

    /// Reads at most `budget` values; when it runs out, what was read comes back with the rest marked truncated.
    package static func parse(_ text: String, budget: inout ValueBudget) -> ValueNode {
        var parser = CFDescriptionParser(bytes: Array(text.utf8), budget: budget)
        defer { budget = parser.budget }
        parser.cursor.skipWhitespace()
        let node = parser.object(depth: 0)
        parser.cursor.skipWhitespace()
        return parser.cursor.position < parser.cursor.bytes.count && !parser.budget.isExhausted
            ? ValueNode(kind: .raw, value: text) : node
    }

    private var budget: ValueBudget
    /// Set when an object is still open at the end of the text: the enclosing ones give up without rescanning.
    private var unclosedAtEnd = false

    private init(bytes: [UInt8], budget: ValueBudget) {
        cursor = TextCursor(bytes)
        self.budget = budget
    }

    /// `<CFType 0x… [0x…]>{fields}`.
    private mutating func object(depth: Int) -> ValueNode {
        let start = cursor.position
        guard budget.spend() else { return ValueNode(kind: .truncated) }
        guard depth < Self.maximumDepth, cursor.expect("<"),
            let close = cursor.bytes[cursor.position...].firstIndex(of: UInt8(ascii: ">"))
        else {
            return rawToLineEnd(from: start)
        }
        let header = cursor.text(cursor.position..<close)
        let type = String(header.prefix { $0 != " " })
        cursor.position = close + 1
        guard cursor.expect("{") else { return rawToLineEnd(from: start) }
        let node: ValueNode?
        switch type {
        case "CFString", "__NSCFString", "__NSCFConstantString": node = string()
        case "CFNumber", "__NSCFNumber": node = number()
        case "CFBoolean", "__NSCFBoolean": node = boolean()
        case "CFBasicHash", "CFDictionary": node = dictionary(depth: depth)
        case "CFArray", "__NSCFArray": node = array(depth: depth)
        default: node = nil
        }
        if let node { return node }
        if cursor.position >= cursor.bytes.count || unclosedAtEnd {
            unclosedAtEnd = true
            return ValueNode(kind: .raw, value: depth == 0 ? cursor.text(start..<cursor.bytes.count) : "")
        }
        cursor.position = start
        return rawObject()
    }

    /// `contents = "…"}`: the contents run to the `"}` that ends the object.
    private mutating func string() -> ValueNode? {
        guard cursor.expect("contents = \"") else { return nil }
        let start = cursor.position
        while cursor.position + 1 < cursor.bytes.count {
            if cursor.bytes[cursor.position] == UInt8(ascii: "\""),
                cursor.bytes[cursor.position + 1] == UInt8(ascii: "}")
            {
                let after = cursor.position + 2
                let ends =
                    after == cursor.bytes.count || cursor.bytes[after] == 0x0A || cursor.bytes[after] == 0x0D
                    || cursor.bytes[after...].starts(with: " = ".utf8)
                    || cursor.bytes[after] == UInt8(ascii: ")")
                if ends {
                    let contents = cursor.text(start..<cursor.position)
                    cursor.position = after
                    return contents == "$null" ? ValueNode(kind: .null) : ValueNode(kind: .string, value: contents)
                }
            }
            cursor.position += 1
        }
        return nil
    }

    /// `value = +3, type = kCFNumberSInt32Type}`.
    private mutating func number() -> ValueNode? {
        guard cursor.expect("value = "), let comma = cursor.bytes[cursor.position...].firstIndex(of: UInt8(ascii: ",")),
            let close = cursor.bytes[comma...].firstIndex(of: UInt8(ascii: "}"))
        else { return nil }
        var value = cursor.text(cursor.position..<comma)
        let type = cursor.text(comma..<close)
        cursor.position = close + 1
        if value.hasPrefix("+") { value.removeFirst() }
        if type.contains("Float") || type.contains("Double") || value.contains(".") {
            guard let double = Double(value) else { return ValueNode(kind: .scalar, value: value) }
            return ValueNode(kind: .scalar, value: SwiftLiteral.shortest(double))
        }
        return ValueNode(kind: .scalar, value: value)
    }

    /// `value = true}`.
    private mutating func boolean() -> ValueNode? {
        if cursor.expect("value = true}") { return ValueNode(kind: .scalar, value: "true") }
        if cursor.expect("value = false}") { return ValueNode(kind: .scalar, value: "false") }
        return nil
    }

    /// `type = …, count = N,\nentries =>\n\tI : KEY = VALUE\n…}`.
    private mutating func dictionary(depth: Int) -> ValueNode? {
        guard let entries = cursor.bytes[cursor.position...].firstRange(of: "entries =>".utf8) else { return nil }
        cursor.position = entries.upperBound
        var children: [ValueNode] = []
        while true {
            cursor.skipWhitespace()
            guard cursor.position < cursor.bytes.count else { return nil }
            if cursor.bytes[cursor.position] == UInt8(ascii: "}") {
                cursor.position += 1; return ValueNode(kind: .dictionary, children: children)
            }
            guard skipIndex() else { return nil }
            let key = object(depth: depth + 1)
            if budget.isExhausted { return ValueNode(kind: .dictionary, children: children + [key]) }
            guard !unclosedAtEnd, cursor.expect(" = ") else { return nil }
            var value = object(depth: depth + 1)
            value.label = key.kind == .string ? key.value : LineRenderer().render(key)
            children.append(value)
            if budget.isExhausted { return ValueNode(kind: .dictionary, children: children) }
            if unclosedAtEnd { return nil }
        }
    }

    /// `type = …, count = N, values = (\n\tI : VALUE\n…)}`.
    private mutating func array(depth: Int) -> ValueNode? {
        guard let values = cursor.bytes[cursor.position...].firstRange(of: "values = (".utf8) else { return nil }
        cursor.position = values.upperBound
        var children: [ValueNode] = []
        while true {
            cursor.skipWhitespace()
            guard cursor.position < cursor.bytes.count else { return nil }
            if cursor.expect(")}") { return ValueNode(kind: .collection, children: children) }
            guard skipIndex() else { return nil }
            children.append(object(depth: depth + 1))
            if budget.isExhausted { return ValueNode(kind: .collection, children: children) }
            if unclosedAtEnd { return nil }
        }
    }

    /// `12 : `, the slot number in front of an entry.
    private mutating func skipIndex() -> Bool {
        let start = cursor.position
        while cursor.position < cursor.bytes.count,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(cursor.bytes[cursor.position])
        { cursor.position += 1 }
        guard cursor.position > start, cursor.expect(" : ") else { cursor.position = start; return false }
        return true
    }

    /// An object of a type not read here: its text up to the brace that balances its first one.
    private mutating func rawObject() -> ValueNode {
        let start = cursor.position
        var depth = 0
        while cursor.position < cursor.bytes.count {
            let byte = cursor.bytes[cursor.position]
            cursor.position += 1
            if byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "}") { depth -= 1; if depth == 0 { break } }
        }
        return ValueNode(kind: .raw, value: cursor.text(start..<cursor.position))
    }

    private mutating func rawToLineEnd(from start: Int) -> ValueNode {
        cursor.position = start
        while cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] != 0x0A { cursor.position += 1 }
        return ValueNode(kind: .raw, value: cursor.text(start..<cursor.position))
    }
}
