/// A JSON value with the byte range it came from, so one part of a document can be rewritten in place
/// while every other byte stays as it was. Numbers keep their text (UInt64 values above 2^53 survive).
package enum JSONValue: Equatable {
    case object([(key: String, value: JSONNode)])
    case array([JSONNode])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }
}

package struct JSONNode: Equatable {
    package var value: JSONValue
    /// Byte offsets of the value in the parsed buffer.
    package var span: Range<Int>

    package subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    package var array: [JSONNode]? { if case .array(let items) = value { items } else { nil } }
    package var string: String? { if case .string(let text) = value { text } else { nil } }
    package var unsigned: UInt64? {
        switch value {
        case .number(let text): UInt64(text) ?? Double(text).flatMap { $0 >= 0 && $0 < 1.8e19 ? UInt64($0) : nil }
        case .string(let text): UInt64(text)
        default: nil
        }
    }
    package var bool: Bool? {
        switch value {
        case .bool(let flag): flag
        case .number(let text): text != "0"
        default: nil
        }
    }
}

/// A JSON parser over bytes that records where each value lies. Nesting deeper than
/// ``maximumDepth`` is an error, not a stack overflow.
package struct JSONParser {
    package struct Failure: Error {
        package var offset: Int
        package var reason: String
    }

    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var position: Int
    private let end: Int

    package init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    /// Parses one value filling the range (surrounding whitespace allowed).
    package static func parse(_ bytes: [UInt8], range: Range<Int>) throws(Failure) -> JSONNode {
        var parser = JSONParser(bytes: bytes, range: range)
        parser.skipWhitespace()
        let node = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.end else {
            throw Failure(offset: parser.position, reason: "text after the JSON value")
        }
        return node
    }

    private mutating func skipWhitespace() {
        while position < end {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONNode {
        guard depth < Self.maximumDepth else {
            throw Failure(offset: position, reason: "nesting deeper than \(Self.maximumDepth)")
        }
        guard position < end else { throw Failure(offset: position, reason: "the JSON ends early") }
        let start = position
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var members: [(key: String, value: JSONNode)] = []
            skipWhitespace()
            if position < end, bytes[position] == UInt8(ascii: "}") {
                position += 1; return JSONNode(value: .object(members), span: start..<position)
            }
            while true {
                skipWhitespace()
                guard position < end, bytes[position] == UInt8(ascii: "\"") else {
                    throw Failure(offset: position, reason: "expected a key")
                }
                let key = try string()
                skipWhitespace()
                guard position < end, bytes[position] == UInt8(ascii: ":") else {
                    throw Failure(offset: position, reason: "expected ':'")
                }
                position += 1
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard position < end else { throw Failure(offset: position, reason: "the JSON ends inside an object") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                guard bytes[position] == UInt8(ascii: "}") else {
                    throw Failure(offset: position, reason: "expected ',' or '}'")
                }
                position += 1
                return JSONNode(value: .object(members), span: start..<position)
            }
        case UInt8(ascii: "["):
            position += 1
            var items: [JSONNode] = []
            skipWhitespace()
            if position < end, bytes[position] == UInt8(ascii: "]") {
                position += 1; return JSONNode(value: .array(items), span: start..<position)
            }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard position < end else { throw Failure(offset: position, reason: "the JSON ends inside an array") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                guard bytes[position] == UInt8(ascii: "]") else {
                    throw Failure(offset: position, reason: "expected ',' or ']'")
                }
                position += 1
                return JSONNode(value: .array(items), span: start..<position)
            }
        case UInt8(ascii: "\""):
            let text = try string()
            return JSONNode(value: .string(text), span: start..<position)
        case UInt8(ascii: "t"): return try literal("true", .bool(true), start)
        case UInt8(ascii: "f"): return try literal("false", .bool(false), start)
        case UInt8(ascii: "n"): return try literal("null", .null, start)
        default:
            while position < end, Self.isNumberByte(bytes[position]) { position += 1 }
            guard position > start else { throw Failure(offset: position, reason: "unexpected character") }
            return JSONNode(
                value: .number(String(decoding: bytes[start..<position], as: UTF8.self)), span: start..<position)
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue, _ start: Int) throws(Failure) -> JSONNode {
        let utf8 = Array(word.utf8)
        guard position + utf8.count <= end, Array(bytes[position..<position + utf8.count]) == utf8 else {
            throw Failure(offset: position, reason: "unexpected character")
        }
        position += utf8.count
        return JSONNode(value: value, span: start..<position)
    }

    /// A string's text: the bytes between the quotes decoded at once when there is no escape (the common case),
    /// else the bytes with their escapes replaced, then decoded. A `\\u` surrogate pair is one scalar.
    private mutating func string() throws(Failure) -> String {
        position += 1 // the opening quote
        let start = position
        while position < end {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: bytes[start..<position - 1], as: UTF8.self)
            case UInt8(ascii: "\\"):
                return try escapedString(from: start)
            default:
                position += 1
            }
        }
        throw Failure(offset: position, reason: "the JSON ends inside a string")
    }

    private mutating func escapedString(from start: Int) throws(Failure) -> String {
        var text = Array(bytes[start..<position])
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: text, as: UTF8.self)
            }
            guard byte == UInt8(ascii: "\\") else { text.append(byte); position += 1; continue }
            guard position + 1 < end else { break }
            let escape = bytes[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "u"):
                var code = try hexEscape()
                if (0xD800..<0xDC00).contains(code), position + 6 <= end, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                {
                    let resume = position
                    position += 2
                    let low = try hexEscape()
                    if (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        position = resume
                    }
                }
                text.append(contentsOf: String(Unicode.Scalar(code) ?? "\u{FFFD}").utf8)
            default: text.append(escape)
            }
        }
        throw Failure(offset: position, reason: "the JSON ends inside a string")
    }

    /// The four hex digits of a `\\u` escape, after the `u`.
    private mutating func hexEscape() throws(Failure) -> UInt32 {
        guard position + 4 <= end else { throw Failure(offset: position, reason: "bad \\u escape") }
        var code: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure(offset: position, reason: "bad \\u escape")
            }
            code = code << 4 | UInt32(digit)
        }
        position += 4
        return code
    }
}
