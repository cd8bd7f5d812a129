public import ObjectFiles

/// How an image is opened and how its names are shown.
public struct SymbolizerOptions: Hashable, Sendable {
    /// Show demangled names (`function`); the linkage name is kept either way.
    public var demangle: Bool
    /// Where to look for the debug file of a stripped binary.
    public var debugFileSearch: DebugFileSearch

    public init(demangle: Bool = true, debugFileSearch: DebugFileSearch = DebugFileSearch()) {
        self.demangle = demangle
        self.debugFileSearch = debugFileSearch
    }
}
