import ObjectFiles
import PostmortemCore

/// The DWARF of the file dwz moved common DIEs and strings to (``ObjectFiles/SupplementaryLink``), as the forms that
/// point into it read it: `DW_FORM_GNU_strp_alt`/`DW_FORM_strp_sup` its `.debug_str`, `DW_FORM_GNU_ref_alt` and
/// `DW_FORM_ref_sup4/8` a DIE of its `.debug_info`. Read in place, shared by every thread as the file's own sections.
final class SupplementaryDWARF: Sendable {
    /// The file read.
    let path: String
    let sections: DebugSections
    let headers: UnitHeaders
    /// Completes names through the supplementary file's own references (its DIEs point within it only).
    let nameResolver: FunctionNameResolver

    /// A reference to a DIE of the supplementary file is its offset with this bit set, so that a reference is one
    /// number wherever it lies (no `.debug_info` reaches 2^63 bytes).
    static let referenceTag: UInt64 = 1 << 63

    /// Opens the DWARF of `object`.
    /// - Throws: ``DWARFError`` when it cannot be mapped, has no `.debug_info`, or a unit header cannot be read (the
    ///   offsets that point into it cannot be trusted).
    init(object: ObjectFile) throws(DWARFError) {
        path = object.path
        sections = DebugSections(try SectionAccess(object: object), supplementary: nil, isSupplementaryFile: true)
        headers = UnitHeaders(sections.info)
        if let offset = headers.unreadableAt {
            throw DWARFError(
                .malformed, path: object.path,
                detail: "unit header at offset 0x\(String(offset, radix: 16)) cannot be read")
        }
        nameResolver = FunctionNameResolver(sections: sections, headers: headers)
    }
}
