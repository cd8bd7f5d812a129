/// JSON text written straight into one byte buffer, laid out as ``JSONText`` lays it out (`{"key": value, …}`,
/// `[a, b]`): for renderers that write many small values, where joining a string per member costs more than the
/// symbolication it reports.
package struct JSONBytes {
    /// The text so far.
    package private(set) var bytes: [UInt8] = []
    /// For each object or array open, whether a member has been written in it (the next one needs a comma).
    private var written: [Bool] = []

    /// An empty buffer with room for `capacity` bytes.
    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Opens an object, as a value (after ``key(_:)``, in an array, or at the top).
    package mutating func beginObject() { beginValue(); bytes.append(UInt8(ascii: "{")); written.append(false) }
    /// Closes the innermost object.
    package mutating func endObject() { written.removeLast(); bytes.append(UInt8(ascii: "}")) }
    /// Opens an array, as a value.
    package mutating func beginArray() { beginValue(); bytes.append(UInt8(ascii: "[")); written.append(false) }
    /// Closes the innermost array.
    package mutating func endArray() { written.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// The key of the next member of the innermost object; its value follows.
    package mutating func key(_ key: String) {
        separate()
        appendQuoted(key)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        keyed = true
    }

    /// A member of the innermost object whose value is a string, or `null`.
    package mutating func member(_ key: String, _ value: String?) {
        self.key(key)
        string(value)
    }

    /// A member whose value is a number, or `null`.
    package mutating func member<T: BinaryInteger>(_ key: String, number value: T?) {
        self.key(key)
        number(value)
    }

    /// A member whose value is `true` or `false`.
    package mutating func member(_ key: String, bool value: Bool) {
        self.key(key)
        bool(value)
    }

    /// A string value, or `null`.
    package mutating func string(_ value: String?) {
        beginValue()
        if let value { appendQuoted(value) } else { bytes += "null".utf8 }
    }

    /// A number value, or `null`.
    package mutating func number<T: BinaryInteger>(_ value: T?) {
        beginValue()
        if let value { bytes += "\(value)".utf8 } else { bytes += "null".utf8 }
    }

    /// `true` or `false`.
    package mutating func bool(_ value: Bool) {
        beginValue()
        bytes += (value ? "true" : "false").utf8
    }

    /// A value already encoded as JSON text.
    package mutating func encoded(_ text: String) {
        beginValue()
        bytes += text.utf8
    }

    /// Whether the last thing written was a key, whose value comes next without a separator.
    private var keyed = false

    private mutating func beginValue() {
        if keyed { keyed = false } else { separate() }
    }

    private mutating func separate() {
        guard let last = written.indices.last else { return }
        if written[last] {
            bytes.append(UInt8(ascii: ","))
            bytes.append(UInt8(ascii: " "))
        }
        written[last] = true
    }

    private mutating func appendQuoted(_ value: String) { Self.appendQuoted(value, to: &bytes) }

    /// Appends `value` to `bytes` as a JSON string literal with the escapes RFC 8259 requires, as
    /// ``JSONText/quote(_:)`` writes it.
    package static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied as they are.
        let utf8 = value.utf8.span
        var needsEscape = false
        for index in utf8.indices {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                needsEscape = true
                break
            }
        }
        if !needsEscape {
            appendUTF8(value, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += #"\""#.utf8
            case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
            case UInt8(ascii: "\n"): bytes += #"\n"#.utf8
            case UInt8(ascii: "\r"): bytes += #"\r"#.utf8
            case UInt8(ascii: "\t"): bytes += #"\t"#.utf8
            case 0..<0x20:
                bytes += #"\u00"#.utf8
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0xF))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the UTF-8 of `text` to `bytes`: a byte at a time from its storage, which for the short texts of JSON
    /// (keys, punctuation, small values) costs less than the general `append(contentsOf:)`.
    package static func appendUTF8(_ text: String, to bytes: inout [UInt8]) {
        let utf8 = text.utf8.span
        for index in utf8.indices { bytes.append(utf8[index]) }
    }

    /// The lowercase hexadecimal digit of `value` (0–15).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
