import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

@testable import Symbolication

/// The orderings and keys the index is built with: the radix sort against a comparison sort, range tables whose
/// touching ranges are joined against the same tables unjoined, and names keyed by a sampled hash against plain
/// strings, each over seeded random inputs.
@Suite("Orderings and keys")
struct OrderingTests {
    /// Key sets of every shape the index meets: many ties, keys that differ in their low or high bytes only, whole
    /// 64-bit keys, and sizes around the point where the radix sort takes over.
    static func keySets() -> [[UInt64]] {
        var generator = SeededGenerator(seed: 41)
        var sets: [[UInt64]] = [[], [7], [3, 3], [9, 1]]
        for count in [RadixSort.smallCount - 1, RadixSort.smallCount, RadixSort.smallCount + 1, 1_000, 20_000] {
            sets.append((0..<count).map { _ in UInt64.random(in: 0..<8, using: &generator) })
            sets.append((0..<count).map { _ in 0x40_0000 + UInt64.random(in: 0..<0x10_0000, using: &generator) })
            sets.append((0..<count).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) })
            sets.append((0..<count).map { _ in UInt64.random(in: 0..<4, using: &generator) << 56 | 0x1234 })
        }
        return sets
    }

    @Test func theRadixOrderIsTheStableComparisonOrder() {
        for keys in Self.keySets() {
            let expected = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
            #expect(RadixSort.stableOrder(of: keys) == expected, "\(keys.count) keys")
        }
    }

    /// Tables of ranges that touch, overlap, nest, share starts and leave gaps, with few values (so that touching
    /// ranges often share one): joined, every address at and around every edge finds what it finds unjoined.
    @Test func joiningTouchingRangesChangesNoAnswer() {
        var generator = SeededGenerator(seed: 7)
        var joinedAway = 0
        for _ in 0..<200 {
            var pairs: [(AddressRange, UInt32)] = []
            var start: UInt64 = 0x1000
            for _ in 0..<Int.random(in: 1...60, using: &generator) {
                let size = UInt64.random(in: 0...40, using: &generator)
                let value = UInt32.random(in: 0..<3, using: &generator)
                pairs.append((AddressRange(FileAddress(start), FileAddress(start + size)), value))
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: start += size // touching
                case 1: start += UInt64.random(in: 0...size, using: &generator) // overlapping or the same start
                case 2: start += size + UInt64.random(in: 1...16, using: &generator) // a gap
                default: start -= min(start, UInt64.random(in: 0...60, using: &generator)) // back: nesting
                }
            }
            pairs.shuffle(using: &generator)
            var plainWriter = ByteWriter(), joinedWriter = ByteWriter()
            let plainCount = FlatRangeTable.write(pairs, to: &plainWriter)
            let joinedCount = FlatRangeTable.write(pairs, to: &joinedWriter, joiningTouchingRanges: true)
            joinedAway += plainCount - joinedCount
            // A table reads bytes its maker keeps alive.
            let plainBytes = ImmutableBytes(plainWriter.bytes), joinedBytes = ImmutableBytes(joinedWriter.bytes)
            withExtendedLifetime((plainBytes, joinedBytes)) {
                let plain = FlatRangeTable(bytes: plainBytes, at: 0, limit: plainWriter.count)
                let joined = FlatRangeTable(bytes: joinedBytes, at: 0, limit: joinedWriter.count)
                let edges = pairs.flatMap { [$0.0.lowerBound.rawValue, $0.0.upperBound.rawValue] }
                for address in Set(edges.flatMap { [$0 &- 1, $0, $0 + 1] }) {
                    #expect(
                        joined.value(containing: FileAddress(address)) == plain.value(containing: FileAddress(address)),
                        "0x\(String(address, radix: 16)) in \(pairs)")
                }
            }
        }
        #expect(joinedAway > 0, "some ranges were joined")
    }

    /// Names that share long beginnings and ends and differ in the bytes the hash does not sample: each keeps its
    /// own value, as with plain string keys.
    @Test func sampledKeysFindEachNameAsStringsDo() {
        var generator = SeededGenerator(seed: 3)
        var names: Set<String> = []
        let head = "$s11SwiftSyntax0aB4NodeV", tail = "FTf4nnd_n"
        while names.count < 5_000 {
            let length = Int.random(in: 0...60, using: &generator)
            let middle = String((0..<length).map { _ in "ab_0".randomElement(using: &generator)! })
            names.insert(Bool.random(using: &generator) ? head + middle + tail : middle)
        }
        var byKey: [SampledNameKey: Int] = [:]
        var byString: [String: Int] = [:]
        for (value, name) in names.sorted().enumerated() {
            byKey[SampledNameKey(name)] = value
            byString[name] = value
        }
        #expect(byKey.count == byString.count)
        for name in names { #expect(byKey[SampledNameKey(name)] == byString[name], "\(name)") }
    }
}
