/// The UUID of a Mach-O image (`LC_UUID`), which ties a binary to its dSYM.
public struct MachUUID: Hashable, Sendable {
    /// The 16 bytes of the `LC_UUID` command, in file order.
    public var bytes: [UInt8]

    /// The UUID of `bytes`.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses `4C4C445B-5555-3144-A18D-535DDD3BDF97`, with or without dashes, in either case.
    public init?(string: String) {
        // Over the bytes in place: crash reports list hundreds of images, each with its UUID.
        // The digits gathered in two words, the array made once at the end (written nibble by nibble, it cost a
        // uniqueness check and a bounds check a digit).
        let text = string.utf8.span
        guard text.count >= 32 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        var nibbles = 0
        for index in text.indices where text[index] != UInt8(ascii: "-") {
            guard nibbles < 32, let value = BuildID.nibble(text[index]) else { return nil }
            if nibbles < 16 {
                words.0 = words.0 << 4 | UInt64(value)
            } else {
                words.1 = words.1 << 4 | UInt64(value)
            }
            nibbles += 1
        }
        guard nibbles == 32 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for word in [words.0, words.1] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        self.bytes = bytes
    }
}

extension MachUUID: CustomStringConvertible {
    /// Upper-case with dashes (8-4-4-4-12), as dwarfdump and crash reports print it.
    public var description: String {
        let hex = BuildID(bytes: bytes).hex.uppercased()
        guard hex.count == 32 else { return hex }
        var text = ""
        for (index, character) in hex.enumerated() {
            if [8, 12, 16, 20].contains(index) { text += "-" }
            text.append(character)
        }
        return text
    }
}
