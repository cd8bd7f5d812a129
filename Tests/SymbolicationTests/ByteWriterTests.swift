import PostmortemCore
import Symbolication
import TestSupport
import Testing

/// LEB128 numbers as the index writer packs them: read back by ``ByteReader`` as written, each in as few bytes as its
/// bits need.
@Suite("Index writer's numbers")
struct ByteWriterTests {
    @Test func unsignedNumbersReadBackAsWrittenInTheFewestBytes() {
        var generator = SeededGenerator(seed: 0x77)
        var numbers: [UInt64] = [0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, UInt64(UInt32.max), UInt64.max - 1, UInt64.max]
        for bits in 1...64 { numbers.append(UInt64.random(in: 0...(UInt64.max >> (64 - bits)), using: &generator)) }
        var writer = ByteWriter()
        for number in numbers { writer.uleb(number) }
        let bytes = writer.bytes
        var position = 0
        for number in numbers {
            let read = bytes.withUnsafeBytes { ByteReader(bytes: $0).uleb(at: position) }
            let length = max(1, (64 - number.leadingZeroBitCount + 6) / 7)
            #expect(read?.value == number && read?.next == position + length, "\(number)")
            position += length
        }
        #expect(position == bytes.count)
    }
}
