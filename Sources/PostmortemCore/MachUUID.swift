/// The UUID of a Mach-O image (`LC_UUID`), which ties a binary to its dSYM.
public struct MachUUID: Hashable, Sendable {
    /// The 16 bytes of the `LC_UUID` command, in file order.
    public var bytes: [UInt8]

    /// The UUID of `bytes`.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses `4C4C445B-5555-3144-A18D-535DDD3BDF97`, with or without dashes, in either case.
    public init?(string: String) {
        guard let parsed = BuildID(hex: String(string.filter { $0 != "-" })), parsed.bytes.count == 16 else {
            return nil
        }
        bytes = parsed.bytes
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
