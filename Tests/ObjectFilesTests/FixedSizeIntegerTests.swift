import PostmortemCore
import TestSupport
import Testing

/// Integers of a size given at run time (DWARF's fixed forms, address sizes), as ``ByteReader/unsigned(at:size:)``
/// reads them, against the bytes put together by hand.
@Suite("Integers of any size up to eight bytes")
struct FixedSizeIntegerTests {
    @Test(arguments: [false, true])
    func everySizeAtEveryOffsetReadsItsBytes(_ isBigEndian: Bool) {
        var generator = SeededGenerator(seed: 0x5123)
        let bytes = (0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for size in 0...9 {
            for offset in -1...bytes.count {
                let read = bytes.withUnsafeBytes {
                    ByteReader(bytes: $0, isBigEndian: isBigEndian).unsigned(at: offset, size: size)
                }
                var expected: UInt64?
                if size <= 8, offset >= 0, offset + size <= bytes.count {
                    let slice = Array(bytes[offset..<(offset + size)])
                    expected = (isBigEndian ? slice : slice.reversed()).reduce(0) { $0 << 8 | UInt64($1) }
                }
                #expect(read == expected, "size \(size) at \(offset)")
            }
        }
    }
}
