import ObjectFiles
import PostmortemCore

/// The addresses a partial read of a unit is for (``DWARFFile/contents(of:holdingAnyOf:)``): sorted, each once.
package struct AddressTargets: Sendable, Equatable {
    /// The addresses, ascending, without repeats.
    package let sorted: [UInt64]

    /// The targets `addresses` name, sorted and each once.
    package init(_ addresses: some Sequence<FileAddress>) {
        self.init(raw: addresses.map(\.rawValue))
    }

    private init(raw: [UInt64]) {
        var values = raw
        values.sort()
        var unique: [UInt64] = []
        unique.reserveCapacity(values.count)
        for value in values where unique.last != value { unique.append(value) }
        sorted = unique
    }

    /// Whether any of the addresses lies in `range`.
    /// - Complexity: O(log n).
    package func anyIn(_ range: AddressRange) -> Bool {
        let index = firstIndex(atOrAfter: range.lowerBound.rawValue)
        return index < sorted.count && sorted[index] < range.upperBound.rawValue
    }

    /// Whether `address` is one of the addresses.
    package func contains(_ address: FileAddress) -> Bool {
        let index = firstIndex(atOrAfter: address.rawValue)
        return index < sorted.count && sorted[index] == address.rawValue
    }

    /// Whether every one of `other`'s addresses is one of these.
    package func contains(allOf other: AddressTargets) -> Bool {
        other.sorted.allSatisfy { contains(FileAddress($0)) }
    }

    /// These addresses and `other`'s.
    package func union(_ other: AddressTargets) -> AddressTargets {
        AddressTargets(raw: sorted + other.sorted)
    }

    /// The position of the first address at or after `value`.
    func firstIndex(atOrAfter value: UInt64) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
