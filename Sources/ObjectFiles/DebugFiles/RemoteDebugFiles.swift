import PostmortemCore

/// Somewhere files of a build can be fetched from by its build-id when this machine lacks them: debuginfod servers.
/// The lookups that use one (a stripped binary's debug file, a binary a log names, a source file) call it only after
/// every local place failed, and check what it hands back themselves.
public protocol RemoteDebugFiles: AnyObject, Sendable {
    /// The local path of `artifact` of the build `buildID` (downloaded now or earlier), or why there is none. Blocks
    /// until the answer is known, which is bounded by the source's own time limits.
    func fetch(_ artifact: RemoteArtifact, of buildID: BuildID) -> RemoteFetch
}

/// What can be fetched of a build.
public enum RemoteArtifact: Hashable, Sendable {
    /// The file with the build's DWARF (a separate debug file, or the unstripped binary).
    case debugInfo
    /// The binary itself, as it was loaded.
    case executable
    /// A source file, by its absolute path as the debug information names it.
    case source(path: String)

    /// The artifact's name in debuginfod's URLs and in its client's cache (`debuginfo`, `executable`, `source`).
    public var kind: String {
        switch self {
        case .debugInfo: "debuginfo"
        case .executable: "executable"
        case .source: "source"
        }
    }
}

/// The outcome of a fetch.
public enum RemoteFetch: Hashable, Sendable {
    /// The artifact is at `path` (in the download cache); `origin` says where it came from, for notes.
    case fetched(path: String, origin: String)
    /// None of the sources had it, or none could be asked; `reason` says which sources said what, in one line.
    case unavailable(reason: String)
}

/// A ``RemoteDebugFiles`` as a value that options can hold and compare: two are equal when they are the same source.
public struct RemoteDebugFileSource: Hashable, Sendable {
    /// The source itself.
    public let source: any RemoteDebugFiles

    /// `source` as a value.
    public init(_ source: any RemoteDebugFiles) { self.source = source }

    /// Whether both are the same source object.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.source === rhs.source }
    /// Hashes the source object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(source)) }
}
