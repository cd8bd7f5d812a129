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
}
