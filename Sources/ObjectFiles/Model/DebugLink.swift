/// The `.gnu_debuglink` section of a stripped binary: the name of its debug file and that file's CRC-32.
package struct DebugLink: Hashable, Sendable {
    /// The debug file's name (no directory).
    package var fileName: String
    /// The CRC-32 of the whole debug file, which a candidate must match.
    package var crc: UInt32

    /// A link to `fileName` with checksum `crc`.
    package init(fileName: String, crc: UInt32) {
        self.fileName = fileName
        self.crc = crc
    }
}
