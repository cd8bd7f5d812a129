import PostmortemCore

/// Names as shown, worked out once for every thread: a batch meets the same functions again and again.
struct ShownNames: ~Copyable, Sendable {
    /// By linkage name.
    let byName = ShardedMemo<SampledNameKey, String>()
    /// Of names stored in place in the index cache, by their place in the debug file: a place hashes as one number,
    /// where a batch of Swift names spent a tenth of its time hashing names of a hundred bytes and more.
    let byPlace = ShardedMemo<UInt64, String>()

    /// The shard of a name: its length and last byte, cheaper than hashing it.
    static func shard(_ name: String) -> Int { name.utf8.count &+ Int(name.utf8.last ?? 0) << 16 }
}

/// Names as shown.
extension ImageSymbolizer: RecordNaming {
    /// Makes room in the memos for a batch of `count` lookups from several threads: a memo that grows meanwhile
    /// rehashes its entries with its lock held, and the other thread waits for it in the kernel.
    package func expect(lookups count: Int) {
        let count = min(count, LookupTuning.reservedLookups)
        // Both indexes give a record's name with its place (in the debug file, or among a unit's own strings); without
        // one, names come from the symbol tables, by text.
        if let dwarf {
            dwarf.expect(lookups: count)
            shownNames.byPlace.reserve(count)
        } else {
            shownNames.byName.reserve(count)
        }
    }

    /// The name to show for a linkage name, per ``SymbolizerOptions/demangle``.
    public func displayName(_ linkageName: String) -> String {
        guard options.demangle else { return linkageName }
        let shard = ShownNames.shard(linkageName)
        let key = SampledNameKey(linkageName)
        if let known = shownNames.byName.value(for: key, shard: shard) { return known }
        return shownNames.byName.keep(demangler.demangle(linkageName), for: key, shard: shard)
    }

    /// The name to show for a linkage name that the debug file holds at `place` (when known).
    func shownName(_ linkageName: String, place: UInt64?) -> String {
        guard options.demangle, let place else { return displayName(linkageName) }
        if let known = shownNames.byPlace.value(for: place, shard: Int(truncatingIfNeeded: place)) { return known }
        return shownNames.byPlace.keep(
            demangler.demangle(linkageName), for: place, shard: Int(truncatingIfNeeded: place))
    }
}
