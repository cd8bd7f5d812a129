/// How symbolication knew the binary it used for an image was the one that crashed: what in the log vouched for it.
public enum ImageIdentification: String, Hashable, Sendable, CaseIterable {
    /// The log's build-id or UUID is the binary's.
    case identifier
    /// Every frame of the image that names `symbol+offset` lands where the binary puts that symbol, at one load bias.
    case symbols
    /// The log names no symbol of it and no identifier: its frames' offsets lie in the binary's code and agree on one
    /// load bias (or with where the log says it was loaded), and in a glibc trace most of its return addresses follow
    /// a call there. Another build of the same code may agree as well.
    case offsets
    /// Nothing in the log could be checked against the binary (an image the log names only by its path).
    case unchecked
}
