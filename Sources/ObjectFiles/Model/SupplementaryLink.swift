import PostmortemCore

/// Where a debug file's common DWARF lives when dwz has moved it out: the file that `DW_FORM_GNU_ref_alt` and
/// `DW_FORM_GNU_strp_alt` (named in `.gnu_debugaltlink`), or DWARF 5's `DW_FORM_ref_sup4/8` and `DW_FORM_strp_sup`
/// (named in `.debug_sup`), point into. Debian, Ubuntu and Fedora put it at `/usr/lib/debug/.dwz/…` and ship it in
/// one package with the debug files that share it.
package struct SupplementaryLink: Hashable, Sendable {
    /// Which section named it.
    package enum Kind: String, Hashable, Sendable {
        /// `.gnu_debugaltlink` (dwz before DWARF 5).
        case gnuAlternate
        /// `.debug_sup` (DWARF 5, `dwz -5`).
        case dwarf5
    }

    /// The path as the section states it: absolute (Debian, `/usr/lib/debug/.dwz/<triplet>/<package>.debug`) or
    /// relative to the debug file's folder (Fedora).
    package var path: String
    /// The build-id the file must have (`.debug_sup` calls it a checksum; dwz writes the build-id there).
    package var buildID: BuildID?
    /// Which section named the file.
    package var kind: Kind

    /// A link to `path`, whose file has `buildID`.
    package init(path: String, buildID: BuildID?, kind: Kind) {
        self.path = path
        self.buildID = buildID
        self.kind = kind
    }

    /// The link `.gnu_debugaltlink`'s bytes state: the path, a NUL, the build-id.
    static func gnuAlternate(_ bytes: UnsafeRawBufferPointer) -> SupplementaryLink? {
        guard let end = bytes.firstIndex(of: 0), end > 0 else { return nil }
        let id = Array(bytes[(end + 1)...])
        return SupplementaryLink(
            path: String(decoding: bytes[0..<end], as: UTF8.self), buildID: id.isEmpty ? nil : BuildID(bytes: id),
            kind: .gnuAlternate)
    }

    /// What `.debug_sup`'s bytes state (DWARF 5, 7.3.6): version 5, `is_supplementary`, the supplementary file's
    /// name (empty in that file itself), then the checksum's length and bytes. In a file that uses a supplementary
    /// file, the link to it; in the supplementary file, its checksum (dwz writes the same bytes in both). `nil` for
    /// a section that cannot be read.
    static func dwarf5(_ bytes: UnsafeRawBufferPointer, isBigEndian: Bool) -> (
        link: SupplementaryLink?, ownChecksum: BuildID?
    )? {
        var cursor = ByteCursor(ByteReader(bytes: bytes, isBigEndian: isBigEndian), at: 0)
        guard let version = cursor.unsigned(2), version == 5, let isSupplementary = cursor.unsigned(1),
            isSupplementary <= 1,
            let name = cursor.cString(), let length = cursor.uleb(), length <= UInt64(bytes.count - cursor.position)
        else { return nil }
        let bytes = Array(bytes[cursor.position..<cursor.position + Int(length)])
        let checksum = bytes.isEmpty ? nil : BuildID(bytes: bytes)
        if isSupplementary == 1 { return (nil, checksum) }
        return name.isEmpty ? nil : (SupplementaryLink(path: name, buildID: checksum, kind: .dwarf5), nil)
    }
}
