/// The bytes of records being written: appended as ASCII and numbers without building a string per field.
struct RecordText {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func appendByte(_ byte: UInt8) { bytes.append(byte) }

    /// `value` in lower-case hexadecimal, without prefix.
    mutating func appendHex(_ value: UInt64) {
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        let digits = (64 - value.leadingZeroBitCount + 3) / 4
        for index in stride(from: digits - 1, through: 0, by: -1) {
            let nibble = UInt8((value >> UInt64(index * 4)) & 0xF)
            bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
    }

    /// `value` in decimal.
    mutating func appendDecimal(_ value: UInt64) {
        if value < 10 { bytes.append(UInt8(ascii: "0") + UInt8(value)); return }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// `value` in decimal, with a minus sign when negative.
    mutating func appendSigned(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func removeLast(_ count: Int) { bytes.removeLast(count) }
}
