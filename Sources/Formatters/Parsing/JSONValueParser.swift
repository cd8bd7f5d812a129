#if canImport(FoundationEssentials)
    import FoundationEssentials // not all of Foundation: its ICU data and start-up cost stay out of the CLI
#else
    import Foundation
#endif

/// Parses JSON into a ``ValueNode`` tree, keeping key order and the text of numbers (an integer stays an
/// integer). Nesting deeper than ``maximumDepth`` is an error, not a stack overflow.
package struct JSONValueParser {
    /// Nesting deeper than this is an error, not a stack overflow.
    package static let maximumDepth = 512

    /// Why the text is not JSON this parser reads, and where.
    package struct Failure: Error, CustomStringConvertible {
        /// The byte offset where reading stopped.
        package var offset: Int
        /// What is wrong there.
        package var reason: String
        /// The reason with its offset, in one line.
        package var description: String { "JSON at byte \(offset): \(reason)" }
    }

    var cursor: TextCursor

    /// The value `text` holds as a tree (objects as structures, arrays as collections).
    package static func parse(_ text: String) throws(Failure) -> ValueNode {
        var budget = ValueBudget()
        return try parse(text, budget: &budget)
    }

    /// Reads at most `budget` values; when it runs out, what was read comes back with the rest marked truncated
    /// (the text after that point is not checked).
    package static func parse(_ text: String, budget: inout ValueBudget) throws(Failure) -> ValueNode {
        var parser = JSONValueParser(bytes: Array(text.utf8), budget: budget)
        defer { budget = parser.budget }
        parser.skip()
        let node = try parser.value(depth: 0)
        parser.skip()
        guard parser.cursor.position == parser.cursor.bytes.count || parser.budget.isExhausted else {
            throw Failure(offset: parser.cursor.position, reason: "text after the value")
        }
        return node
    }

    var budget: ValueBudget

    init(bytes: [UInt8], budget: ValueBudget) {
        cursor = TextCursor(bytes)
        self.budget = budget
    }

    mutating func skip() { cursor.skipWhitespace() }

    mutating func value(depth: Int) throws(Failure) -> ValueNode {
        guard depth < Self.maximumDepth else {
            throw Failure(offset: cursor.position, reason: "nesting deeper than \(Self.maximumDepth)")
        }
        guard cursor.position < cursor.bytes.count else {
            throw Failure(offset: cursor.position, reason: "the text ends early")
        }
        guard budget.spend() else { return ValueNode(kind: .truncated) }
        switch cursor.bytes[cursor.position] {
        case UInt8(ascii: "{"):
            cursor.position += 1
            var children: [ValueNode] = []
            // Most containers hold a few values: one allocation for them, not one per doubling.
            children.reserveCapacity(4)
            skip()
            if cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] == UInt8(ascii: "}") {
                cursor.position += 1; return ValueNode(kind: .dictionary)
            }
            while true {
                skip()
                guard cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] == UInt8(ascii: "\"") else {
                    throw Failure(offset: cursor.position, reason: "expected a key")
                }
                let key = try string()
                skip()
                guard cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] == UInt8(ascii: ":") else {
                    throw Failure(offset: cursor.position, reason: "expected ':'")
                }
                cursor.position += 1
                skip()
                var child = try value(depth: depth + 1)
                child.label = key
                children.append(child)
                if budget.isExhausted { return ValueNode(kind: .dictionary, children: children) }
                skip()
                guard cursor.position < cursor.bytes.count else {
                    throw Failure(offset: cursor.position, reason: "the text ends inside an object")
                }
                if cursor.bytes[cursor.position] == UInt8(ascii: ",") { cursor.position += 1; continue }
                guard cursor.bytes[cursor.position] == UInt8(ascii: "}") else {
                    throw Failure(offset: cursor.position, reason: "expected ',' or '}'")
                }
                cursor.position += 1
                return ValueNode(kind: .dictionary, children: children)
            }
        case UInt8(ascii: "["):
            cursor.position += 1
            var children: [ValueNode] = []
            // Most containers hold a few values: one allocation for them, not one per doubling.
            children.reserveCapacity(4)
            skip()
            if cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] == UInt8(ascii: "]") {
                cursor.position += 1; return ValueNode(kind: .collection)
            }
            while true {
                skip()
                children.append(try value(depth: depth + 1))
                if budget.isExhausted { return ValueNode(kind: .collection, children: children) }
                skip()
                guard cursor.position < cursor.bytes.count else {
                    throw Failure(offset: cursor.position, reason: "the text ends inside an array")
                }
                if cursor.bytes[cursor.position] == UInt8(ascii: ",") { cursor.position += 1; continue }
                guard cursor.bytes[cursor.position] == UInt8(ascii: "]") else {
                    throw Failure(offset: cursor.position, reason: "expected ',' or ']'")
                }
                cursor.position += 1
                return ValueNode(kind: .collection, children: children)
            }
        case UInt8(ascii: "\""): return ValueNode(kind: .string, value: try string())
        case UInt8(ascii: "t"): try literal("true"); return ValueNode(kind: .scalar, value: "true")
        case UInt8(ascii: "f"): try literal("false"); return ValueNode(kind: .scalar, value: "false")
        case UInt8(ascii: "n"): try literal("null"); return ValueNode(kind: .null)
        default:
            let start = try number()
            return ValueNode(
                kind: .scalar, value: String(decoding: cursor.bytes[start..<cursor.position], as: UTF8.self))
        }
    }

    /// Steps over a number, returning where it started.
    mutating func number() throws(Failure) -> Int {
        let start = cursor.position
        while cursor.position < cursor.bytes.count, Self.isNumberByte(cursor.bytes[cursor.position]) {
            cursor.position += 1
        }
        guard PlainJSONRenderer.isJSONNumber(cursor.bytes.span, start..<cursor.position) else {
            throw Failure(offset: start, reason: "unexpected character")
        }
        return start
    }

    /// The bytes a number is spelled with: digits, signs, `.`, `e`, `E`.
    static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    mutating func literal(_ word: String) throws(Failure) {
        guard cursor.expect(word) else { throw Failure(offset: cursor.position, reason: "unexpected character") }
    }

    mutating func string() throws(Failure) -> String {
        cursor.position += 1
        // Most strings have no escape: made from their bytes at once.
        let start = cursor.position
        while cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] != UInt8(ascii: "\""),
            cursor.bytes[cursor.position] != UInt8(ascii: "\\")
        { cursor.position += 1 }
        if cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] == UInt8(ascii: "\"") {
            cursor.position += 1
            return String(decoding: cursor.bytes[start..<cursor.position - 1], as: UTF8.self)
        }
        cursor.position = start
        var scalars = String.UnicodeScalarView()
        var pendingHigh: UInt32?
        while cursor.position < cursor.bytes.count {
            let byte = cursor.bytes[cursor.position]
            if byte == UInt8(ascii: "\"") { cursor.position += 1; return String(scalars) }
            if byte == UInt8(ascii: "\\") {
                guard cursor.position + 1 < cursor.bytes.count else { break }
                let escape = cursor.bytes[cursor.position + 1]
                cursor.position += 2
                switch escape {
                case UInt8(ascii: "u"):
                    guard cursor.position + 4 <= cursor.bytes.count,
                        let code = UInt32(
                            String(decoding: cursor.bytes[cursor.position..<cursor.position + 4], as: UTF8.self),
                            radix: 16)
                    else {
                        throw Failure(offset: cursor.position, reason: "a bad \\u escape")
                    }
                    cursor.position += 4
                    if (0xD800..<0xDC00).contains(code) { pendingHigh = code; continue }
                    if (0xDC00..<0xE000).contains(code), let high = pendingHigh {
                        scalars.append(
                            Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) ?? "\u{FFFD}")
                        pendingHigh = nil
                        continue
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: scalars.append(TextCursor.unescaped(escape))
                }
                continue
            }
            // Copy a run of plain cursor.bytes (UTF-8) at once.
            let start = cursor.position
            while cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] != UInt8(ascii: "\""),
                cursor.bytes[cursor.position] != UInt8(ascii: "\\")
            { cursor.position += 1 }
            scalars.append(
                contentsOf: String(decoding: cursor.bytes[start..<cursor.position], as: UTF8.self).unicodeScalars)
        }
        throw Failure(offset: cursor.position, reason: "the text ends inside a string")
    }
}
