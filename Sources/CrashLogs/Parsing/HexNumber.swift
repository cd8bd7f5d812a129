/// Reads `0x…` hex numbers out of log text, refusing values above 2^64.
enum HexNumber {
    /// The value of `text` when it is `0x` followed by 1 to 16 hex digits.
    static func parse<S: StringProtocol>(_ text: S) -> UInt64? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        let digits = text.dropFirst(2)
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        return UInt64(digits, radix: 16)
    }
}
