import PostmortemCore

/// Names as shown.
extension ImageSymbolizer {
    /// The name to show for a linkage name, per ``SymbolizerOptions/demangle``.
    public func displayName(_ linkageName: String) -> String {
        guard options.demangle else { return linkageName }
        if let known = displayNames[linkageName] { return known }
        let name = demangler.demangle(linkageName)
        displayNames[linkageName] = name
        return name
    }

    /// The name to show for a linkage name that the debug file holds at `place` (when known): names remembered by
    /// their place, which hashes as one number, where a batch of Swift names spent a tenth of its time hashing names
    /// of a hundred bytes and more to remember them.
    func displayName(_ linkageName: String, place: UInt64?) -> String {
        guard options.demangle, let place else { return displayName(linkageName) }
        if let known = displayNamesByPlace[place] { return known }
        let name = demangler.demangle(linkageName)
        displayNamesByPlace[place] = name
        return name
    }
}
