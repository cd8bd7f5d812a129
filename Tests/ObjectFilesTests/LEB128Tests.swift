import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

/// Unsigned LEB128 numbers as ``ByteReader`` and ``ImmutableBytes`` read them: the DWARF standard's examples, numbers
/// of every length, and random bytes against a decoder written from the standard's definition.
@Suite("LEB128 numbers")
struct LEB128Tests {
    /// The number at `offset` by the definition (seven bits a byte, low first, the high bit saying another follows),
    /// nil when the bytes end inside it; its low 64 bits when it is longer.
    private static func reference(_ bytes: [UInt8], at offset: Int) -> (value: UInt64, next: Int)? {
        guard offset >= 0 else { return nil }
        var value: UInt64 = 0
        var position = offset
        var shift = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if shift < 64 { value |= UInt64(byte & 0x7F) << UInt64(shift) }
            shift += 7
            if byte & 0x80 == 0 { return (value, position) }
        }
        return nil
    }

    private static func read(_ bytes: [UInt8], at offset: Int) -> (value: UInt64, next: Int)? {
        bytes.withUnsafeBytes { ByteReader(bytes: $0).uleb(at: offset) }
    }

    @Test func theStandardsExamples() {
        // DWARF 5, table 7.6.
        let examples: [([UInt8], UInt64)] = [
            ([2], 2), ([127], 127), ([0x80, 1], 128), ([0x81, 1], 129), ([0x82, 1], 130), ([0xB9, 100], 12857)
        ]
        for (bytes, value) in examples {
            let read = Self.read(bytes, at: 0)
            #expect(read?.value == value && read?.next == bytes.count, "\(bytes)")
        }
    }

    @Test func everyLengthUpToElevenBytes() {
        for length in 1...11 {
            let bytes = Array(repeating: UInt8(0xFF), count: length - 1) + [0x01]
            let read = Self.read([0x7F] + bytes, at: 1)
            let expected = Self.reference([0x7F] + bytes, at: 1)
            #expect(read?.value == expected?.value && read?.next == length + 1, "length \(length)")
        }
        #expect(Self.read([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], at: 0)?.value == UInt64.max)
    }

    @Test func aNumberCutShortOrOutsideTheBytesIsNone() {
        #expect(Self.read([0x80, 0x80], at: 0) == nil)
        #expect(Self.read([0x05], at: 1) == nil)
        #expect(Self.read([0x05], at: -1) == nil)
        #expect(Self.read([], at: 0) == nil)
        // ImmutableBytes reads such a number as 0, with the end of the bytes after it.
        let bytes = ImmutableBytes([0x01, 0x80, 0x80])
        #expect(bytes.uleb(at: 1) == (0, 3))
        #expect(bytes.uleb(at: 7) == (0, 8))
        #expect(bytes.uleb(at: 0) == (1, 1))
    }

    @Test func randomBytesReadAsTheDefinitionSays() {
        var generator = SeededGenerator(seed: 0x1EB)
        var compared = 0
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...24, using: &generator)
            // Mostly bytes with the high bit set, so that numbers of every length come up.
            let bytes = (0..<count).map { _ in
                UInt8.random(in: 0...255, using: &generator) | (Bool.random(using: &generator) ? 0x80 : 0)
            }
            for offset in -1...count {
                let read = Self.read(bytes, at: offset), expected = Self.reference(bytes, at: offset)
                #expect(read?.value == expected?.value && read?.next == expected?.next, "\(bytes) at \(offset)")
                compared += 1
            }
        }
        #expect(compared > 20_000)
    }
}
