/// The function and data symbols of an object file, sorted by address for lookups.
public struct SymbolTable: Sendable {
    /// Every symbol, sorted by address; of several at one address, the global one with a size first.
    public let symbols: [Symbol]

    /// The address range of each section symbols lie in, which bounds symbols that declare no size.
    private let sectionRanges: [String: AddressRange]

    /// Sorts `symbols` and drops duplicates (the same symbol in `.symtab` and `.dynsym`).
    /// - Parameter sections: the file's sections; a symbol without a size covers no address outside its own.
    public init(symbols: [Symbol], sections: [Section] = []) {
        var ranges: [String: AddressRange] = [:]
        for section in sections where section.isAllocated && ranges[section.name] == nil { ranges[section.name] = section.addressRange }
        sectionRanges = ranges
        let sorted = symbols.sorted { lhs, rhs in
            if lhs.address != rhs.address { return lhs.address < rhs.address }
            if (lhs.size == 0) != (rhs.size == 0) { return lhs.size != 0 }
            return lhs.name < rhs.name
        }
        var unique: [Symbol] = []
        unique.reserveCapacity(sorted.count)
        for symbol in sorted where unique.last.map({ $0.address != symbol.address || $0.name != symbol.name }) ?? true {
            unique.append(symbol)
        }
        self.symbols = unique
    }

    /// The symbol that covers `address`, and how far into it the address lies.
    ///
    /// A symbol with a size covers exactly its bytes; one without covers everything up to the
    /// next symbol's address, but not past the end of its section.
    /// - Complexity: O(log n).
    public func symbol(containing address: FileAddress) -> (symbol: Symbol, offset: UInt64)? {
        var low = 0, high = symbols.count
        while low < high {
            let middle = (low + high) / 2
            if symbols[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        // `low` is the first symbol past `address`; the group before it shares one address.
        guard low > 0 else { return nil }
        let groupAddress = symbols[low - 1].address
        var groupStart = low - 1
        while groupStart > 0, symbols[groupStart - 1].address == groupAddress { groupStart -= 1 }
        let offset = address.rawValue - groupAddress.rawValue
        let group = symbols[groupStart..<low]
        if let sized = group.first(where: { $0.size > offset }) { return (sized, offset) }
        if let unsized = group.first(where: { $0.size == 0 && isInOwnSection(address, $0) }) { return (unsized, offset) }
        return nil
    }

    private func isInOwnSection(_ address: FileAddress, _ symbol: Symbol) -> Bool {
        guard let name = symbol.sectionName, let range = sectionRanges[name] else { return true }
        return range.contains(address) || (range.isEmpty && range.lowerBound == address)
    }

    /// The symbol named `name`, for `info line FUNCTION`-style lookups.
    /// - Complexity: O(n).
    public func symbol(named name: String) -> Symbol? {
        symbols.first { $0.name == name }
    }
}
