/// The `.gnu_debuglink` section of a stripped binary: the name of its debug file and that file's CRC-32.
public struct DebugLink: Hashable, Sendable {
    public var fileName: String
    public var crc: UInt32

    public init(fileName: String, crc: UInt32) {
        self.fileName = fileName
        self.crc = crc
    }
}
