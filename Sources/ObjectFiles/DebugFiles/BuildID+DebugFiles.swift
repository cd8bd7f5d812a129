public import PostmortemCore

extension BuildID {
    /// The path of the debug file below a debug root: `.build-id/xx/rest.debug`.
    public var debugFileRelativePath: String? {
        guard bytes.count >= 2 else { return nil }
        let text = hex
        return ".build-id/\(text.prefix(2))/\(text.dropFirst(2)).debug"
    }
}
