import PostmortemCore

/// A binary the log names: from an image list, or from the frames themselves.
public struct CrashImage: Hashable, Sendable {
    /// The name frames use (`sensors`, `libc.so.6`, `App`).
    public var name: String
    /// The path the log gives, as written (may be relative, or from another machine).
    public var path: String?
    /// The build-id (ELF) or UUID (Mach-O) the log gives, as written. Set with ``identity`` only (``identify(as:kind:)``),
    /// so the two never disagree.
    public private(set) var identifier: String?
    /// ``identifier`` read as its format writes it (a build-id or a UUID); `nil` when the log gives none, or gives
    /// something that is neither.
    public private(set) var identity: ImageIdentifier?
    /// The architecture the log names for the image (`arm64`, `x86_64`), as written.
    public var architecture: String?
    /// Where the log says the image was loaded: its first address in the process.
    public var loadAddress: UInt64?
    /// Where the log says the image ends in the process (an image list's last address), if it says.
    public var endAddress: UInt64?
    /// The binary or debug file symbolication used (set by the symbolicator).
    public var debugFile: String?
    /// What in the log vouched for the binary used (set by the symbolicator with ``debugFile``).
    public var identifiedBy: ImageIdentification?

    /// An image as a parser reads it.
    public init(
        name: String, path: String?, identifier: String? = nil, identifierKind: ImageIdentifier.Kind = .buildID,
        architecture: String? = nil, loadAddress: UInt64? = nil, endAddress: UInt64? = nil
    ) {
        self.name = name
        self.path = path
        self.identifier = identifier
        identity = identifier.flatMap { ImageIdentifier($0, kind: identifierKind) }
        self.architecture = architecture
        self.loadAddress = loadAddress
        self.endAddress = endAddress
    }

    /// Gives the image the identifier `text`, written as `kind` (a reader that finds it after the image: in a module
    /// list, on a frame line).
    package mutating func identify(as text: String, kind: ImageIdentifier.Kind = .buildID) {
        identifier = text
        identity = ImageIdentifier(text, kind: kind)
    }

    /// Takes `other`'s identifier, as written and as read, when this image has none.
    package mutating func adoptIdentifier(of other: CrashImage) {
        guard identifier == nil else { return }
        identifier = other.identifier
        identity = other.identity
    }
}
