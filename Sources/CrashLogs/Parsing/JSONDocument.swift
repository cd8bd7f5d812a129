/// A JSON value with the byte range it came from, so one part of a document can be rewritten in place
/// while every other byte stays as it was. Numbers keep their text (UInt64 values above 2^53 survive).
indirect enum JSONValue: Equatable {
    case object([(key: String, value: JSONNode)])
    case array([JSONNode])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
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

struct JSONNode: Equatable {
    var value: JSONValue
    /// Byte offsets of the value in the parsed buffer.
    var span: Range<Int>

    subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    var array: [JSONNode]? { if case .array(let items) = value { items } else { nil } }
    var string: String? { if case .string(let text) = value { text } else { nil } }
    var unsigned: UInt64? {
        switch value {
        case .number(let text): UInt64(text) ?? Double(text).flatMap { $0 >= 0 && $0 < 1.8e19 ? UInt64($0) : nil }
        case .string(let text): UInt64(text)
        default: nil
        }
    }
    var bool: Bool? {
        switch value {
        case .bool(let flag): flag
        case .number(let text): text != "0"
        default: nil
        }
    }
}

/// A JSON parser over bytes that records where each value lies. Nesting deeper than
/// ``maximumDepth`` is an error, not a stack overflow.
struct JSONParser {
    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var position: Int
    private let end: Int

    init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    /// Parses one value filling the range (surrounding whitespace allowed).
    static func parse(_ bytes: [UInt8], range: Range<Int>) throws(Failure) -> JSONNode {
        var parser = JSONParser(bytes: bytes, range: range)
        parser.skipWhitespace()
        let node = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.end else { throw Failure(offset: parser.position, reason: "text after the JSON value") }
        return node
    }

    private mutating func skipWhitespace() {
        while position < end, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONNode {
        guard depth < Self.maximumDepth else { throw Failure(offset: position, reason: "nesting deeper than \(Self.maximumDepth)") }
        guard position < end else { throw Failure(offset: position, reason: "the JSON ends early") }
        let start = position
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var members: [(key: String, value: JSONNode)] = []
            skipWhitespace()
            if position < end, bytes[position] == UInt8(ascii: "}") { position += 1; return JSONNode(value: .object(members), span: start..<position) }
            while true {
                skipWhitespace()
                guard position < end, bytes[position] == UInt8(ascii: "\"") else { throw Failure(offset: position, reason: "expected a key") }
                let key = try string()
                skipWhitespace()
                guard position < end, bytes[position] == UInt8(ascii: ":") else { throw Failure(offset: position, reason: "expected ':'") }
                position += 1
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard position < end else { throw Failure(offset: position, reason: "the JSON ends inside an object") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                guard bytes[position] == UInt8(ascii: "}") else { throw Failure(offset: position, reason: "expected ',' or '}'") }
                position += 1
                return JSONNode(value: .object(members), span: start..<position)
            }
        case UInt8(ascii: "["):
            position += 1
            var items: [JSONNode] = []
            skipWhitespace()
            if position < end, bytes[position] == UInt8(ascii: "]") { position += 1; return JSONNode(value: .array(items), span: start..<position) }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard position < end else { throw Failure(offset: position, reason: "the JSON ends inside an array") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                guard bytes[position] == UInt8(ascii: "]") else { throw Failure(offset: position, reason: "expected ',' or ']'") }
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
            while position < end, "+-0123456789.eE".utf8.contains(bytes[position]) { position += 1 }
            guard position > start else { throw Failure(offset: position, reason: "unexpected character") }
            return JSONNode(value: .number(String(decoding: bytes[start..<position], as: UTF8.self)), span: start..<position)
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

    private mutating func string() throws(Failure) -> String {
        position += 1  // the opening quote
        var scalars = String.UnicodeScalarView()
        var run = position
        func flush(_ upTo: Int) { scalars.append(contentsOf: String(decoding: bytes[run..<upTo], as: UTF8.self).unicodeScalars) }
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                flush(position)
                position += 1
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                flush(position)
                guard position + 1 < end else { break }
                let escape = bytes[position + 1]
                position += 2
                switch escape {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "u"):
                    guard position + 4 <= end, let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                        throw Failure(offset: position, reason: "bad \\u escape")
                    }
                    position += 4
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: scalars.append(Unicode.Scalar(escape))
                }
                run = position
                continue
            }
            position += 1
        }
        throw Failure(offset: position, reason: "the JSON ends inside a string")
    }
}
