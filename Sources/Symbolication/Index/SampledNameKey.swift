/// A name as a dictionary key that hashes its length and a few of its bytes rather than all of them: Swift's names
/// run to hundreds of bytes, and hashing each in full was a tenth of packing a unit and of naming its records. Keys
/// of equal hash still compare in full, so a sampled hash changes how often names are compared, not what is found.
struct SampledNameKey: Hashable, Sendable {
    let name: String

    init(_ name: String) { self.name = name }

    static func == (lhs: SampledNameKey, rhs: SampledNameKey) -> Bool { lhs.name == rhs.name }

    /// The length, the last 16 bytes and 8 from the middle: names of one program share long beginnings (module,
    /// type) and differ most near their ends (function, arguments, specialization suffix).
    func hash(into hasher: inout Hasher) {
        let bytes = name.utf8.span
        let count = bytes.count
        hasher.combine(count)
        guard count > 24 else {
            for index in bytes.indices { hasher.combine(bytes[index]) }
            return
        }
        hasher.combine(Self.word(bytes, at: count - 16))
        hasher.combine(Self.word(bytes, at: count - 8))
        hasher.combine(Self.word(bytes, at: count / 2 - 4))
    }

    private static func word(_ bytes: Span<UInt8>, at start: Int) -> UInt64 {
        bytes.bytes.unsafeLoadUnaligned(fromByteOffset: start, as: UInt64.self)
    }
}
