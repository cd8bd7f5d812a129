import PostmortemCore

/// The sections a walk of `.debug_info` reads, in place (decompressed where the file compresses them), as
/// ``SectionAccess`` holds them for libdwarf: valid while that object lives. A section the file lacks is empty.
struct DebugSections {
    let info: ByteReader
    let abbreviations: ByteReader
    let strings: ByteReader
    let lineStrings: ByteReader
    let stringOffsets: ByteReader
    let addresses: ByteReader
    let rangeLists: ByteReader
    let ranges: ByteReader
    let line: ByteReader

    init(_ access: SectionAccess) {
        let isBigEndian = access.isBigEndian
        func section(_ name: String) -> ByteReader {
            ByteReader(bytes: access.section(named: name) ?? UnsafeRawBufferPointer(start: nil, count: 0), isBigEndian: isBigEndian)
        }
        info = section(".debug_info")
        abbreviations = section(".debug_abbrev")
        strings = section(".debug_str")
        lineStrings = section(".debug_line_str")
        stringOffsets = section(".debug_str_offsets")
        addresses = section(".debug_addr")
        rangeLists = section(".debug_rnglists")
        ranges = section(".debug_ranges")
        line = section(".debug_line")
    }

    /// A reader of the line programs of `.debug_line`; `nil` when the file has none.
    var lineProgram: LineProgramReader? {
        line.bytes.isEmpty ? nil : LineProgramReader(section: line.bytes, lineStrings: lineStrings.bytes, strings: strings.bytes)
    }
}
