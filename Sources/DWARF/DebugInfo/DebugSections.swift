import ObjectFiles
import PostmortemCore

/// The sections a walk of `.debug_info` reads, in place (decompressed where the file compresses them), each held by
/// the owner of its bytes, so that a value of this type may go to any thread and keeps its bytes alive as long as it
/// lives. A section the file lacks is empty.
struct DebugSections: Sendable {
    private let infoBytes: ImmutableBytes?
    private let abbreviationBytes: ImmutableBytes?
    private let stringBytes: ImmutableBytes?
    private let lineStringBytes: ImmutableBytes?
    private let stringOffsetBytes: ImmutableBytes?
    private let addressBytes: ImmutableBytes?
    private let rangeListBytes: ImmutableBytes?
    private let rangeBytes: ImmutableBytes?
    private let lineBytes: ImmutableBytes?
    private let addressRangeBytes: ImmutableBytes?
    /// Whether integers are stored most significant byte first.
    let isBigEndian: Bool
    /// The file dwz moved common DIEs and strings to, when the file has one and it was found.
    let supplementary: SupplementaryDWARF?
    /// Whether these are the sections of such a common file (whose references point within it).
    let isSupplementaryFile: Bool

    init(_ access: SectionAccess, supplementary: SupplementaryDWARF?, isSupplementaryFile: Bool = false) {
        isBigEndian = access.isBigEndian
        self.supplementary = supplementary
        self.isSupplementaryFile = isSupplementaryFile
        infoBytes = access.bytes(named: ".debug_info")
        abbreviationBytes = access.bytes(named: ".debug_abbrev")
        stringBytes = access.bytes(named: ".debug_str")
        lineStringBytes = access.bytes(named: ".debug_line_str")
        stringOffsetBytes = access.bytes(named: ".debug_str_offsets")
        addressBytes = access.bytes(named: ".debug_addr")
        rangeListBytes = access.bytes(named: ".debug_rnglists")
        rangeBytes = access.bytes(named: ".debug_ranges")
        lineBytes = access.bytes(named: ".debug_line")
        addressRangeBytes = access.bytes(named: ".debug_aranges")
    }

    private func reader(_ bytes: ImmutableBytes?) -> ByteReader {
        ByteReader(
            bytes: UnsafeRawBufferPointer(start: bytes?.baseAddress, count: bytes?.count ?? 0), isBigEndian: isBigEndian
        )
    }

    var info: ByteReader { reader(infoBytes) }
    var abbreviations: ByteReader { reader(abbreviationBytes) }
    var strings: ByteReader { reader(stringBytes) }
    var lineStrings: ByteReader { reader(lineStringBytes) }
    var stringOffsets: ByteReader { reader(stringOffsetBytes) }
    var addresses: ByteReader { reader(addressBytes) }
    var rangeLists: ByteReader { reader(rangeListBytes) }
    var ranges: ByteReader { reader(rangeBytes) }
    var line: ByteReader { reader(lineBytes) }
    /// `.debug_aranges`.
    var addressRanges: ByteReader { reader(addressRangeBytes) }

    /// A reader of the line programs of `.debug_line`; `nil` when the file has none.
    var lineProgram: LineProgramReader? {
        let line = line
        return line.bytes.isEmpty
            ? nil : LineProgramReader(section: line.bytes, lineStrings: lineStrings.bytes, strings: strings.bytes)
    }
}
