/// Sorting by integer keys without comparisons: the symbol tables and range tables of a large binary hold tens of
/// thousands of entries, which a comparison sort orders in sixteen or more passes of calls through a closure, where
/// a radix sort takes one pass per byte that differs between keys.
package enum RadixSort {
    /// Below this many keys a comparison sort is cheaper than the radix sort's counting tables.
    package static let smallCount = 128

    /// The positions of `keys` in ascending key order, equal keys in their given order (a stable sort).
    /// - Complexity: O(n × the number of bytes that are not the same in every key).
    package static func stableOrder(of keys: [UInt64]) -> [Int] {
        guard keys.count >= smallCount, keys.count <= Int(UInt32.max) else {
            return keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
        }
        // A byte that is the same in every key orders nothing: its pass is skipped.
        var all: UInt64 = 0
        var none: UInt64 = ~0
        for key in keys {
            all |= key
            none &= key
        }
        let varying = all & ~none
        var order = (0..<keys.count).map { UInt32(truncatingIfNeeded: $0) }
        var scratch = [UInt32](repeating: 0, count: keys.count)
        var starts = [Int](repeating: 0, count: 256)
        for byte in 0..<8 where (varying >> (byte * 8)) & 0xFF != 0 {
            Self.scatter(keys, byByteAt: UInt64(byte * 8), from: order, into: &scratch, counting: &starts)
            swap(&order, &scratch)
        }
        return order.map { Int($0) }
    }

    /// One pass: `order` re-ordered stably by the byte of each position's key at `shift`, into `sorted`.
    private static func scatter(
        _ keys: [UInt64], byByteAt shift: UInt64, from order: [UInt32], into sorted: inout [UInt32],
        counting starts: inout [Int]
    ) {
        // Buffers, not bounds-checked accesses: two passes over every key, the sort's whole cost.
        keys.withUnsafeBufferPointer { keys in
            order.withUnsafeBufferPointer { order in
                sorted.withUnsafeMutableBufferPointer { sorted in
                    starts.withUnsafeMutableBufferPointer { starts in
                        for index in 0..<256 { starts[index] = 0 }
                        for key in keys { starts[Int(truncatingIfNeeded: (key >> shift) & 0xFF)] += 1 }
                        var total = 0
                        for index in 0..<256 {
                            let count = starts[index]
                            starts[index] = total
                            total += count
                        }
                        // Positions keep their relative order within a bucket: the pass is stable.
                        for position in order {
                            let bucket = Int(truncatingIfNeeded: (keys[Int(position)] >> shift) & 0xFF)
                            sorted[starts[bucket]] = position
                            starts[bucket] += 1
                        }
                    }
                }
            }
        }
    }
}
