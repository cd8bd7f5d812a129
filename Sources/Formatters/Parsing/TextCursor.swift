/// A read position in UTF-8 text, shared by the dump parsers: they all scan bytes, never `Character`s, so a
/// 100 MB dump costs 100 MB (an array of `Character` would cost sixteen times as much).
struct TextCursor {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }
    init(_ text: String) { bytes = Array(text.utf8) }

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }
    var isAtEnd: Bool { position >= bytes.count }

    func byte(at offset: Int) -> UInt8? { position + offset < bytes.count ? bytes[position + offset] : nil }

    /// Whether the bytes at the position are `literal`.
    func sees(_ literal: String) -> Bool { bytes[position...].starts(with: literal.utf8) }

    /// Steps over `literal` when it is next.
    mutating func expect(_ literal: String) -> Bool {
        guard sees(literal) else { return false }
        position += literal.utf8.count
        return true
    }

    mutating func skip(while matches: (UInt8) -> Bool) {
        while position < bytes.count, matches(bytes[position]) { position += 1 }
    }

    /// Spaces, tabs, carriage returns and line feeds.
    mutating func skipWhitespace() { skip(while: TextCursor.isWhitespace) }

    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// What a one-letter backslash escape stands for in C, JSON and Swift literals: `\n`, `\t`, `\r`, `\0`, `\b`,
    /// `\f`, and any other character (`\"`, `\\`, `\'`, `\/`) for itself.
    static func unescaped(_ byte: UInt8) -> Unicode.Scalar {
        switch byte {
        case UInt8(ascii: "n"): "\n"
        case UInt8(ascii: "t"): "\t"
        case UInt8(ascii: "r"): "\r"
        case UInt8(ascii: "0"): "\0"
        case UInt8(ascii: "b"): "\u{8}"
        case UInt8(ascii: "f"): "\u{C}"
        default: Unicode.Scalar(byte)
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    /// A letter, digit or `_`, or any byte of a non-ASCII character (Swift identifiers may hold those).
    static func isIdentifier(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
            || byte >= 0x80
    }
}

/// How many values one reading may build. A dump of any size is read up to this many values; the rest is left
/// out and marked, so memory stays bounded (a value in the tree costs about 150 bytes, whatever its text).
public struct ValueBudget: Sendable {
    /// What `postmortem po` allows: a million values, about 150 MB of tree.
    public static let standard = 1_000_000

    private var remaining: Int

    /// A budget of `values` values.
    public init(_ values: Int = ValueBudget.standard) { remaining = values }

    /// True when the budget ran out: the reading stopped early.
    public var isExhausted: Bool { remaining < 0 }

    /// Takes one value; false once the budget is spent.
    mutating func spend() -> Bool {
        remaining -= 1
        return remaining >= 0
    }
}
