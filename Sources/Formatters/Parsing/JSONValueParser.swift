#if canImport(FoundationEssentials)
import FoundationEssentials  // not all of Foundation: its ICU data and start-up cost stay out of the CLI
#else
import Foundation
#endif

/// Parses JSON into a ``ValueNode`` tree, keeping key order and the text of numbers (an integer stays an
/// integer). Nesting deeper than ``maximumDepth`` is an error, not a stack overflow.
public struct JSONValueParser {
    public static let maximumDepth = 512

    public struct Failure: Error, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "JSON at byte \(offset): \(reason)" }
    }

    private let bytes: [UInt8]
    private var position = 0

    public static func parse(_ text: String) throws(Failure) -> ValueNode {
        var budget = ValueBudget()
        return try parse(text, budget: &budget)
    }

    /// Reads at most `budget` values; when it runs out, what was read comes back with the rest marked truncated
    /// (the text after that point is not checked).
    public static func parse(_ text: String, budget: inout ValueBudget) throws(Failure) -> ValueNode {
        var parser = JSONValueParser(bytes: Array(text.utf8), budget: budget)
        defer { budget = parser.budget }
        parser.skip()
        let node = try parser.value(depth: 0)
        parser.skip()
        guard parser.position == parser.bytes.count || parser.budget.isExhausted else {
            throw Failure(offset: parser.position, reason: "text after the value")
        }
        return node
    }

    private var budget: ValueBudget

    private init(bytes: [UInt8], budget: ValueBudget) {
        self.bytes = bytes
        self.budget = budget
    }

    private mutating func skip() {
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    private mutating func value(depth: Int) throws(Failure) -> ValueNode {
        guard depth < Self.maximumDepth else { throw Failure(offset: position, reason: "nesting deeper than \(Self.maximumDepth)") }
        guard position < bytes.count else { throw Failure(offset: position, reason: "the text ends early") }
        guard budget.spend() else { return ValueNode(kind: .truncated) }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var children: [ValueNode] = []
            skip()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return ValueNode(kind: .dictionary) }
            while true {
                skip()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw Failure(offset: position, reason: "expected a key") }
                let key = try string()
                skip()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw Failure(offset: position, reason: "expected ':'") }
                position += 1
                skip()
                var child = try value(depth: depth + 1)
                child.label = key
                children.append(child)
                if budget.isExhausted { return ValueNode(kind: .dictionary, children: children) }
                skip()
                guard position < bytes.count else { throw Failure(offset: position, reason: "the text ends inside an object") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                guard bytes[position] == UInt8(ascii: "}") else { throw Failure(offset: position, reason: "expected ',' or '}'") }
                position += 1
                return ValueNode(kind: .dictionary, children: children)
            }
        case UInt8(ascii: "["):
            position += 1
            var children: [ValueNode] = []
            skip()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return ValueNode(kind: .collection) }
            while true {
                skip()
                children.append(try value(depth: depth + 1))
                if budget.isExhausted { return ValueNode(kind: .collection, children: children) }
                skip()
                guard position < bytes.count else { throw Failure(offset: position, reason: "the text ends inside an array") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                guard bytes[position] == UInt8(ascii: "]") else { throw Failure(offset: position, reason: "expected ',' or ']'") }
                position += 1
                return ValueNode(kind: .collection, children: children)
            }
        case UInt8(ascii: "\""): return ValueNode(kind: .string, value: try string())
        case UInt8(ascii: "t"): try literal("true"); return ValueNode(kind: .scalar, value: "true")
        case UInt8(ascii: "f"): try literal("false"); return ValueNode(kind: .scalar, value: "false")
        case UInt8(ascii: "n"): try literal("null"); return ValueNode(kind: .null)
        default:
            let start = position
            while position < bytes.count, "+-0123456789.eE".utf8.contains(bytes[position]) { position += 1 }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            guard PlainJSONRenderer.isJSONNumber(text) else { throw Failure(offset: start, reason: "unexpected character") }
            return ValueNode(kind: .scalar, value: text)
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let utf8 = Array(word.utf8)
        guard position + utf8.count <= bytes.count, Array(bytes[position..<position + utf8.count]) == utf8 else {
            throw Failure(offset: position, reason: "unexpected character")
        }
        position += utf8.count
    }

    private mutating func string() throws(Failure) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var pendingHigh: UInt32?
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { position += 1; return String(scalars) }
            if byte == UInt8(ascii: "\\") {
                guard position + 1 < bytes.count else { break }
                let escape = bytes[position + 1]
                position += 2
                switch escape {
                case UInt8(ascii: "u"):
                    guard position + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                        throw Failure(offset: position, reason: "a bad \\u escape")
                    }
                    position += 4
                    if (0xD800..<0xDC00).contains(code) { pendingHigh = code; continue }
                    if (0xDC00..<0xE000).contains(code), let high = pendingHigh {
                        scalars.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) ?? "\u{FFFD}")
                        pendingHigh = nil
                        continue
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: scalars.append(ByteCursor.unescaped(escape))
                }
                continue
            }
            // Copy a run of plain bytes (UTF-8) at once.
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\") { position += 1 }
            scalars.append(contentsOf: String(decoding: bytes[start..<position], as: UTF8.self).unicodeScalars)
        }
        throw Failure(offset: position, reason: "the text ends inside a string")
    }
}
