/// The `FUNC` and `PUBLIC` records of a module by address, filled as dump_syms fills its map: functions first, then
/// public symbols in symbol-table order, each left out when the record before its address covers it.
struct SymbolMap {
    private(set) var records: [UInt32: BreakpadSymbol] = [:]
    /// Function records by address, with where each ends: fixed before any public symbol is added.
    private var functionSpans: [(address: UInt32, end: UInt64)] = []
    /// Every address a public symbol may take, sorted; which of them hold one so far, and its end.
    private var publicAddresses: [UInt32] = []
    private var publicPresent: [UInt64] = []
    private var publicEnds: [UInt64] = []

    /// Adds a function at an address no function has yet (``hasFunction(at:)``; a second one only marks the first).
    mutating func addFunction(_ function: BreakpadSymbol) {
        records[UInt32(truncatingIfNeeded: function.address)] = function
    }

    /// Whether a function at `address` would be a second one there (it is then only marked, not built).
    func hasFunction(at address: UInt64) -> Bool {
        records[UInt32(truncatingIfNeeded: address)].map { !$0.isPublic } ?? false
    }

    /// Marks the function at `address` as one of several.
    mutating func markMultiple(at address: UInt64) {
        records[UInt32(truncatingIfNeeded: address)]?.isMultiple = true
    }

    /// Prepares for public symbols at `addresses` (each may or may not be added).
    mutating func preparePublics(at addresses: [UInt64]) {
        functionSpans = records.values.map {
            (UInt32(truncatingIfNeeded: $0.address), UInt64(UInt32(truncatingIfNeeded: $0.address)) + $0.size)
        }
        .sorted { $0.address < $1.address }
        publicAddresses = Array(Set(addresses.map { UInt32(truncatingIfNeeded: $0) })).sorted()
        publicPresent = [UInt64](repeating: 0, count: publicAddresses.count / 64 + 1)
        publicEnds = [UInt64](repeating: 0, count: publicAddresses.count)
    }

    /// Adds a public symbol of `size` bytes (its symbol's size; it covers that much for later symbols): left out when
    /// the record before it covers its address; at the address of another public symbol, marks that one as several.
    mutating func addPublic(address: UInt64, size: UInt64, name: String) {
        let key = UInt32(truncatingIfNeeded: address)
        if isInsideRecord(key) { return }
        if let existing = records[key] {
            if existing.isPublic { records[key]!.isMultiple = true }
            return
        }
        records[key] = BreakpadSymbol(address: UInt64(key), kind: .publicSymbol, name: name)
        if let slot = slot(of: key) {
            publicPresent[slot / 64] |= 1 << UInt64(slot % 64)
            publicEnds[slot] = UInt64(key) &+ size
        }
    }

    /// Adds a record only where none is (the names given to executable sections).
    mutating func addIfVacant(_ symbol: BreakpadSymbol) {
        let key = UInt32(truncatingIfNeeded: symbol.address)
        if records[key] == nil { records[key] = symbol }
    }

    /// The records by address.
    var sorted: [BreakpadSymbol] {
        records.keys.sorted().map { records[$0]! }
    }

    /// Whether the last record before `address` (function or public symbol) runs past it.
    private func isInsideRecord(_ address: UInt32) -> Bool {
        var best: (address: UInt32, end: UInt64)?
        var low = 0, high = functionSpans.count
        while low < high {
            let middle = (low + high) / 2
            if functionSpans[middle].address < address { low = middle + 1 } else { high = middle }
        }
        if low > 0 { best = functionSpans[low - 1] }
        // No public symbol inside a function's span is ever added (the function or one such before it covers it), so
        // a covering function is the answer without looking at public symbols.
        if let function = best, UInt64(address) < function.end { return true }
        // Only a public symbol after the function before it can be the record before `address`.
        if let publicBefore = lastPublic(before: address, after: best?.address) { best = publicBefore }
        guard let best else { return false }
        return UInt64(address) < best.end
    }

    private func slot(of address: UInt32) -> Int? {
        var low = 0, high = publicAddresses.count
        while low < high {
            let middle = (low + high) / 2
            if publicAddresses[middle] < address { low = middle + 1 } else { high = middle }
        }
        return low < publicAddresses.count && publicAddresses[low] == address ? low : nil
    }

    /// The public symbol added at the highest address below `address` and above `floor` (when given).
    private func lastPublic(before address: UInt32, after floor: UInt32?) -> (address: UInt32, end: UInt64)? {
        // The bits are searched down to the floor's slot only: most addresses of a binary with DWARF hold no public
        // symbol, and a search to the start for each would cost the square of their number.
        let lowest = floor.map { firstSlot(above: $0) } ?? 0
        var slot = firstSlot(atOrAbove: address) - 1
        while slot >= lowest {
            let word = publicPresent[slot / 64] & (slot % 64 == 63 ? .max : (1 << UInt64(slot % 64 + 1)) - 1)
            if word != 0 {
                let found = (slot / 64) * 64 + (63 - word.leadingZeroBitCount)
                return found >= lowest ? (publicAddresses[found], publicEnds[found]) : nil
            }
            slot = (slot / 64) * 64 - 1
        }
        return nil
    }

    /// The first slot of ``publicAddresses`` whose address is `address` or above.
    private func firstSlot(atOrAbove address: UInt32) -> Int {
        var low = 0, high = publicAddresses.count
        while low < high {
            let middle = (low + high) / 2
            if publicAddresses[middle] < address { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first slot of ``publicAddresses`` whose address is above `address`.
    private func firstSlot(above address: UInt32) -> Int {
        var low = 0, high = publicAddresses.count
        while low < high {
            let middle = (low + high) / 2
            if publicAddresses[middle] <= address { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
