import ObjectFiles

/// Address ranges mapped to values, for "which value covers this address" lookups.
/// Ranges may nest or overlap; of several that cover an address, the one that starts last wins.
struct RangeMap<Value> {
    private struct Entry {
        var range: AddressRange
        var value: Value
    }

    private let entries: [Entry]
    /// For each entry, the highest end address of it and every entry before it.
    private let furthestEnd: [FileAddress]

    init(_ pairs: [(AddressRange, Value)]) {
        entries = pairs.filter { !$0.0.isEmpty }.map { Entry(range: $0.0, value: $0.1) }
            .sorted { $0.range.lowerBound < $1.range.lowerBound }
        var furthest = FileAddress(0)
        furthestEnd = entries.map { entry in
            furthest = max(furthest, entry.range.upperBound)
            return furthest
        }
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The value whose range covers `address`.
    /// - Complexity: O(log n) plus the number of earlier ranges that still reach past `address`.
    func value(containing address: FileAddress) -> Value? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].range.lowerBound <= address { low = middle + 1 } else { high = middle }
        }
        var index = low - 1
        while index >= 0, furthestEnd[index] > address {
            if entries[index].range.contains(address) { return entries[index].value }
            index -= 1
        }
        return nil
    }
}
