import ObjectFiles
import PostmortemCore

/// The sections a walk of `.debug_info` reads, in place (decompressed where the file compresses them), so that a value
/// of this type may go to any thread and keeps its bytes alive as long as it lives. A section the file lacks is empty.
///
/// One object owns what the sections hold; the value refers to each part without counting it. Unit readers copy their
/// sections many times a lookup, and a copy counted every section's bytes: writes to counts that every thread shares,
/// which the threads contend for.
struct DebugSections: Sendable {
    /// What the sections hold, kept alive as long as any copy of the sections.
    private final class Owner: Sendable {
        let bytes: [ImmutableBytes]
        let supplementary: SupplementaryDWARF?
        /// The units' abbreviation tables as read so far, shared by every copy of the sections.
        let abbreviationTables = AbbreviationTables()

        init(bytes: [ImmutableBytes], supplementary: SupplementaryDWARF?) {
            self.bytes = bytes
            self.supplementary = supplementary
        }
    }

    private let owner: Owner
    private let infoBytes: Unmanaged<ImmutableBytes>?
    private let abbreviationBytes: Unmanaged<ImmutableBytes>?
    private let stringBytes: Unmanaged<ImmutableBytes>?
    private let lineStringBytes: Unmanaged<ImmutableBytes>?
    private let stringOffsetBytes: Unmanaged<ImmutableBytes>?
    private let addressBytes: Unmanaged<ImmutableBytes>?
    private let rangeListBytes: Unmanaged<ImmutableBytes>?
    private let rangeBytes: Unmanaged<ImmutableBytes>?
    private let lineBytes: Unmanaged<ImmutableBytes>?
    private let addressRangeBytes: Unmanaged<ImmutableBytes>?
    /// Whether integers are stored most significant byte first.
    let isBigEndian: Bool
    /// Whether the file has a common file of dwz's (``supplementary``), found.
    let hasSupplementary: Bool
    /// Whether these are the sections of such a common file (whose references point within it).
    let isSupplementaryFile: Bool

    init(_ access: SectionAccess, supplementary: SupplementaryDWARF?, isSupplementaryFile: Bool = false) {
        isBigEndian = access.isBigEndian
        hasSupplementary = supplementary != nil
        self.isSupplementaryFile = isSupplementaryFile
        let names = [
            ".debug_info", ".debug_abbrev", ".debug_str", ".debug_line_str", ".debug_str_offsets", ".debug_addr",
            ".debug_rnglists", ".debug_ranges", ".debug_line", ".debug_aranges"
        ]
        let bytes = names.map { access.bytes(named: $0) }
        owner = Owner(bytes: bytes.compactMap { $0 }, supplementary: supplementary)
        let uncounted = bytes.map { $0.map { Unmanaged.passUnretained($0) } }
        (infoBytes, abbreviationBytes, stringBytes, lineStringBytes, stringOffsetBytes) = (
            uncounted[0], uncounted[1], uncounted[2], uncounted[3], uncounted[4]
        )
        (addressBytes, rangeListBytes, rangeBytes, lineBytes, addressRangeBytes) = (
            uncounted[5], uncounted[6], uncounted[7], uncounted[8], uncounted[9]
        )
    }

    private func reader(_ bytes: Unmanaged<ImmutableBytes>?) -> ByteReader {
        let buffer =
            bytes?._withUnsafeGuaranteedRef { UnsafeRawBufferPointer(start: $0.baseAddress, count: $0.count) }
            ?? UnsafeRawBufferPointer(start: nil, count: 0)
        return ByteReader(bytes: buffer, isBigEndian: isBigEndian)
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

    /// The file dwz moved common DIEs and strings to, when the file has one and it was found.
    var supplementary: SupplementaryDWARF? { owner.supplementary }

    /// The abbreviation table of `header`'s unit: whole, or up to abbreviation `last` (the unit DIE's, when only that
    /// DIE is read), which units sharing the table read once (``AbbreviationTables``).
    func abbreviationTable(of header: UnitHeader, through last: UInt64?) throws(Abbreviations.Failure)
        -> Abbreviations
    {
        guard let last else { return try Abbreviations(abbreviations, header: header) }
        return try owner.abbreviationTables.table(of: header, in: abbreviations, through: last)
    }

    /// A reader of the line programs of `.debug_line`; `nil` when the file has none.
    var lineProgram: LineProgramReader? {
        let line = line
        return line.bytes.isEmpty
            ? nil : LineProgramReader(section: line.bytes, lineStrings: lineStrings.bytes, strings: strings.bytes)
    }
}
