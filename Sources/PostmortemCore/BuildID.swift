/// An ELF build-id (`NT_GNU_BUILD_ID`): the bytes that name one build of a binary and its debug file.
public struct BuildID: Hashable, Sendable {
    /// The note's bytes (usually 20: a SHA-1 of the linked file), in file order.
    public var bytes: [UInt8]

    /// The build-id of `bytes`.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses a hex string such as `7735fcacf5f0…`; `nil` when it is not an even number of hex digits.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.bytes = bytes
    }

    /// Lower-case hex, as `readelf -n` and `file` print it.
    public var hex: String {
        // Digits written straight into the string's storage: reports name an image's build-id once per frame.
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = digits.utf8Start[Int(byte >> 4)]
                buffer[2 * index + 1] = digits.utf8Start[Int(byte & 0xf)]
            }
            return bytes.count * 2
        }
    }

    /// The value of one hex digit, in either case.
    static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension BuildID: CustomStringConvertible {
    /// The build-id in lower-case hex, as debuginfod and `readelf -n` write it.
    public var description: String { hex }
}
