/// What tells one build of a binary from another, as a log or an object file gives it: an ELF build-id or a Mach-O
/// UUID. Read once from the log's text by its format's reader; compared as bytes, never as text.
public enum ImageIdentifier: Hashable, Sendable {
    /// An ELF `NT_GNU_BUILD_ID` note's bytes.
    case buildID(BuildID)
    /// A Mach-O `LC_UUID`.
    case uuid(MachUUID)

    /// Which of the two a log's identifiers are, as its format says; `fromText` where the format is written on both
    /// systems (a debugger's image list, the Swift runtime's backtracer): a UUID is written with dashes.
    public enum Kind: Sendable {
        /// An ELF build-id.
        case buildID
        /// A Mach-O UUID.
        case uuid
        /// A UUID when written with dashes (8-4-4-4-12), else a build-id.
        case fromText
    }

    /// `text` read as `kind`: hex digits in either case, a UUID's dashes allowed; `nil` when it is not that.
    public init?(_ text: String, kind: Kind) {
        switch kind {
        case .uuid:
            guard let uuid = MachUUID(string: text) else { return nil }
            self = .uuid(uuid)
        case .buildID:
            guard let buildID = BuildID(hex: text) else { return nil }
            self = .buildID(buildID)
        case .fromText:
            self.init(text, kind: text.containsBytes("-") ? .uuid : .buildID)
        }
    }

    /// The identifier's bytes, in file order.
    public var bytes: [UInt8] {
        switch self {
        case .buildID(let buildID): buildID.bytes
        case .uuid(let uuid): uuid.bytes
        }
    }

    /// Whether `other` names the same build: the same bytes (a log of one system may write the other's identifier in
    /// its own way: a Mach-O UUID without dashes where a build-id would be).
    public func isSameBuild(as other: ImageIdentifier) -> Bool { bytes == other.bytes }

    /// The ELF build-id, when it is one (what debuginfod serves files by).
    public var buildID: BuildID? {
        if case .buildID(let buildID) = self { return buildID }
        return nil
    }
}
