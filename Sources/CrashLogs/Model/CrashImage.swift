/// A binary the log names: from an image list, or from the frames themselves.
public struct CrashImage: Hashable, Sendable {
    /// The name frames use (`sensors`, `libc.so.6`, `App`).
    public var name: String
    /// The path the log gives, as written (may be relative, or from another machine).
    public var path: String?
    /// The build-id (ELF) or UUID (Mach-O) the log gives.
    public var identifier: String?
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
        name: String, path: String?, identifier: String? = nil, architecture: String? = nil,
        loadAddress: UInt64? = nil, endAddress: UInt64? = nil
    ) {
        self.name = name
        self.path = path
        self.identifier = identifier
        self.architecture = architecture
        self.loadAddress = loadAddress
        self.endAddress = endAddress
    }
}
