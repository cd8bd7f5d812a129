import PostmortemCore

/// Names as shown, worked out once for every thread: a batch meets the same functions again and again.
struct ShownNames: Sendable {
    /// By linkage name.
    var byName: [String: String] = [:]
    /// Of names stored in place in the index cache, by their place in the debug file: a place hashes as one number,
    /// where a batch of Swift names spent a tenth of its time hashing names of a hundred bytes and more.
    var byPlace: [UInt64: String] = [:]
}

/// Names as shown.
extension ImageSymbolizer {
    /// The name to show for a linkage name, per ``SymbolizerOptions/demangle``.
    public func displayName(_ linkageName: String) -> String {
        guard options.demangle else { return linkageName }
        if let known = shownNames.withLock({ $0.byName[linkageName] }) { return known }
        let name = demangler.demangle(linkageName)
        shownNames.withLock { $0.byName[linkageName] = name }
        return name
    }

    /// The name to show for a linkage name that the debug file holds at `place` (when known).
    func displayName(_ linkageName: String, place: UInt64?) -> String {
        guard options.demangle, let place else { return displayName(linkageName) }
        if let known = shownNames.withLock({ $0.byPlace[place] }) { return known }
        let name = demangler.demangle(linkageName)
        shownNames.withLock { $0.byPlace[place] = name }
        return name
    }
}
