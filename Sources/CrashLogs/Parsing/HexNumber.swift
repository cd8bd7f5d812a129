/// Reads `0x…` hex numbers out of log text, refusing values above 2^64.
enum HexNumber {
    /// The value of `text` when it is `0x` followed by 1 to 16 hex digits.
    static func parse<S: StringProtocol>(_ text: S) -> UInt64? {
        parse(utf8: text.utf8)
    }

    /// The same over UTF-8 bytes.
    static func parse<Bytes: Sequence<UInt8>>(utf8 bytes: Bytes) -> UInt64? {
        var utf8 = bytes.makeIterator()
        guard utf8.next() == UInt8(ascii: "0"), let x = utf8.next(), x | 0x20 == UInt8(ascii: "x") else { return nil }
        var value: UInt64 = 0
        var count = 0
        while let byte = utf8.next() {
            guard let digit = digit(byte), count < 16 else { return nil }
            value = value << 4 | UInt64(digit)
            count += 1
        }
        return count > 0 ? value : nil
    }

    /// The same over `range` of `bytes`: a reader that walks a line's bytes by offset asks without making a view.
    static func parse(_ bytes: Span<UInt8>, _ range: Range<Int>) -> UInt64? {
        guard range.count > 2, range.count <= 18, bytes[range.lowerBound] == UInt8(ascii: "0"),
            bytes[range.lowerBound + 1] | 0x20 == UInt8(ascii: "x")
        else { return nil }
        var value: UInt64 = 0
        for position in range.lowerBound + 2..<range.upperBound {
            guard let digit = digit(bytes[position]) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// The value of one hex digit, either case.
    static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
