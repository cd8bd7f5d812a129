public import ObjectFiles

/// How an image is opened and how its names are shown.
public struct SymbolizerOptions: Hashable, Sendable {
    /// Show demangled names (`function`); the linkage name is kept either way.
    public var demangle: Bool
    /// How much of a Swift name is shown: each name is demangled once, in this style.
    public var swiftNames: Demangler.Style = .full
    /// Where to look for the debug file of a stripped binary.
    public var debugFileSearch: DebugFileSearch
    /// The slice of a universal file to use; `nil` when the file has one.
    public var architecture: Architecture?
    /// Where index-cache files are read and written; `nil` turns the cache off.
    public var indexCache: IndexCache?
    /// Where a debug file missing here is fetched from by build-id (debuginfod), if anywhere.
    public var remoteDebugFiles: RemoteDebugFileSource?
    /// Whether this run writes the index-cache files it lacks itself, before it ends: lookups then read whole units,
    /// which writing needs anyway. Otherwise (a writer after the run) they read only what their addresses need.
    package var writesIndexCacheInRun: Bool = false

    /// Options with the cache off and no debuginfod unless given; ``writesIndexCacheInRun`` is set apart.
    public init(
        demangle: Bool = true, debugFileSearch: DebugFileSearch = DebugFileSearch(), architecture: Architecture? = nil,
        indexCache: IndexCache? = nil, remoteDebugFiles: RemoteDebugFileSource? = nil
    ) {
        self.demangle = demangle
        self.remoteDebugFiles = remoteDebugFiles
        self.debugFileSearch = debugFileSearch
        self.architecture = architecture
        self.indexCache = indexCache
    }
}
