import ObjectFiles
import PostmortemCore

/// Decodes one unit's line program (`.debug_line`, versions 2 to 5) into a ``LineTable``, reading the
/// section in place.
///
/// Why not libdwarf's `dwarf_srclines_b`: libdwarf 20210528 allocates a record per row (a large unit's table
/// took 3.6 ms of a 7 ms single lookup), and it gets two things wrong that had to be mended after it: it
/// starts each DWARF 5 sequence with the file register at 0 (DWARF 5, 6.2.2, says 1), and it reports rows
/// after `DW_LNS_set_epilogue_begin` as ends of sequences. The state machine is DWARF's (6.2.5), with one
/// operation per instruction (`maximum_operations_per_instruction` is 1 on every target Postmortem reads).
struct LineProgramReader {
    /// `.debug_line`.
    let section: UnsafeRawBufferPointer
    /// `.debug_line_str` and `.debug_str`, where DWARF 5 file and directory names may lie.
    let lineStrings: UnsafeRawBufferPointer?
    let strings: UnsafeRawBufferPointer?

    /// What stops a table from being read at all: its header. A program cut short or with a bad opcode keeps
    /// the rows decoded before the damage.
    struct Failure: Error {
        var detail: String
    }

    /// The header fields the program needs, and the table's file paths.
    struct Header {
        var minimumInstructionLength: UInt64
        var defaultIsStatement: Bool
        var lineBase: Int64
        var lineRange: UInt8
        var opcodeBase: UInt8
        var standardOpcodeLengths: [UInt8]
        var files: [String]
        /// The directory and file entries as stored (gdb names files from them, not from ``files``).
        var entries: LineTableFiles.Entries
        var isVersion5: Bool
        var programStart: Int
        var programEnd: Int
    }

    /// The line table at `offset` in `.debug_line`, its file names joined with `compilationDirectory` as
    /// llvm-symbolizer joins them (``LineTableFiles``).
    /// - Parameter targets: when given, only the rows lookups of these addresses read are kept
    ///   (``rows(_:end:neededFor:)``); the others are decoded and dropped.
    func lineTable(at offset: Int, compilationDirectory: String, keepingRowsFor targets: AddressTargets? = nil)
        throws(Failure) -> LineTable
    {
        let header = try readHeader(at: offset, compilationDirectory: compilationDirectory)
        return LineTable(sequences: decodeProgram(header, keepingRowsFor: targets), files: header.files)
    }

    /// The rows of a sequence that lookups of `targets` read: its first row (so the sequence keeps its start, and
    /// its order among overlapping sequences), and for each target in it the row that covers it and the row after
    /// (where the covering one ends). `nil` when no target lies in the sequence.
    static func rows(_ rows: [LineRow], end: FileAddress, neededFor targets: AddressTargets) -> [LineRow]? {
        guard let first = rows.first, targets.anyIn(AddressRange(first.address, end)) else { return nil }
        let addresses = targets.sorted
        var kept = [first]
        var lastKept = 0
        var next = targets.firstIndex(atOrAfter: first.address.rawValue)
        for index in rows.indices {
            while next < addresses.count, addresses[next] < rows[index].address.rawValue { next += 1 }
            guard next < addresses.count else { break }
            let rowEnd = index + 1 < rows.count ? rows[index + 1].address.rawValue : end.rawValue
            guard addresses[next] < rowEnd else { continue }
            for keep in index...min(index + 1, rows.count - 1) where keep > lastKept {
                kept.append(rows[keep])
                lastKept = keep
            }
        }
        return kept
    }

    func readHeader(at offset: Int, compilationDirectory: String) throws(Failure) -> Header {
        var cursor = ByteCursor(section, at: offset)
        guard var unitLength = cursor.unsigned(4) else {
            throw Failure(detail: "its offset is past the end of .debug_line")
        }
        var offsetSize = 4
        if unitLength == 0xFFFF_FFFF {
            guard let length = cursor.unsigned(8) else { throw Failure(detail: "cut short") }
            unitLength = length
            offsetSize = 8
        }
        let unitEnd = cursor.position &+ Int(clamping: unitLength)
        guard let version = cursor.unsigned(2).map(Int.init), (2...5).contains(version) else {
            throw Failure(detail: "unsupported version")
        }
        // address_size, segment_selector_size
        if version >= 5 { guard cursor.skip(2) else { throw Failure(detail: "cut short") } }
        guard let headerLength = cursor.unsigned(offsetSize) else { throw Failure(detail: "cut short") }
        let programStart = cursor.position &+ Int(clamping: headerLength)
        guard let minimumInstructionLength = cursor.byte(),
            version < 4 || cursor.skip(1), // maximum_operations_per_instruction
            let defaultIsStatement = cursor.byte(), let lineBase = cursor.byte(), let lineRange = cursor.byte(),
            let opcodeBase = cursor.byte()
        else { throw Failure(detail: "cut short") }
        guard lineRange > 0, opcodeBase > 0 else { throw Failure(detail: "line_range or opcode_base is 0") }
        var standardOpcodeLengths: [UInt8] = []
        for _ in 1..<Int(opcodeBase) {
            guard let length = cursor.byte() else { throw Failure(detail: "cut short") }
            standardOpcodeLengths.append(length)
        }
        let entries = version >= 5 ? try readEntriesV5(&cursor, offsetSize: offsetSize) : try readEntriesV2(&cursor)
        return Header(
            minimumInstructionLength: UInt64(minimumInstructionLength), defaultIsStatement: defaultIsStatement != 0,
            lineBase: Int64(Int8(bitPattern: lineBase)), lineRange: lineRange, opcodeBase: opcodeBase,
            standardOpcodeLengths: standardOpcodeLengths,
            files: LineTableFiles.paths(entries, isVersion5: version >= 5, compilationDirectory: compilationDirectory),
            entries: entries, isVersion5: version >= 5, programStart: programStart,
            programEnd: min(unitEnd, section.count))
    }

    /// DWARF 2–4: include directories, then file entries (name, directory, time, size), each list ended by an empty name.
    private func readEntriesV2(_ cursor: inout ByteCursor) throws(Failure) -> LineTableFiles.Entries {
        var entries = LineTableFiles.Entries()
        while true {
            guard let directory = cursor.cString() else { throw Failure(detail: "include directories cut short") }
            if directory.isEmpty { break }
            entries.directories.append(directory)
        }
        while true {
            guard let name = cursor.cString() else { throw Failure(detail: "file names cut short") }
            if name.isEmpty { break }
            guard let directory = cursor.uleb(), cursor.uleb() != nil, cursor.uleb() != nil else {
                throw Failure(detail: "file names cut short")
            }
            entries.files.append((name, directory))
        }
        return entries
    }

    /// DWARF 5: directory and file tables described by entry formats (content type and form pairs).
    private func readEntriesV5(_ cursor: inout ByteCursor, offsetSize: Int) throws(Failure) -> LineTableFiles.Entries {
        var entries = LineTableFiles.Entries()
        for isFileTable in [false, true] {
            guard let formatCount = cursor.byte() else { throw Failure(detail: "entry formats cut short") }
            var formats: [(content: UInt64, form: UInt64)] = []
            for _ in 0..<formatCount {
                guard let content = cursor.uleb(), let form = cursor.uleb() else {
                    throw Failure(detail: "entry formats cut short")
                }
                formats.append((content, form))
            }
            guard let count = cursor.uleb(), count <= UInt64(section.count) else {
                throw Failure(detail: "entry count cut short")
            }
            for _ in 0..<count {
                var path = ""
                var directory: UInt64 = 0
                for format in formats {
                    guard let value = readForm(format.form, &cursor, offsetSize: offsetSize) else {
                        throw Failure(
                            detail: "entry with form 0x\(String(format.form, radix: 16)) cut short or unknown")
                    }
                    switch (format.content, value) {
                    case (1, .string(let text)): path = text // DW_LNCT_path
                    case (2, .number(let number)): directory = number // DW_LNCT_directory_index
                    default: break
                    }
                }
                if isFileTable { entries.files.append((path, directory)) } else { entries.directories.append(path) }
            }
        }
        return entries
    }

    private enum FormValue {
        case string(String)
        case number(UInt64)
        case other
    }

    /// The value of one attribute of an entry format; `nil` when it is cut short or its form is not one
    /// line tables use.
    private func readForm(_ form: UInt64, _ cursor: inout ByteCursor, offsetSize: Int) -> FormValue? {
        switch form {
        case 0x08: return cursor.cString().map(FormValue.string) // DW_FORM_string
        // DW_FORM_line_strp
        case 0x1F: return cursor.unsigned(offsetSize).map { .string(Self.cString(lineStrings, at: $0)) }
        case 0x0E: return cursor.unsigned(offsetSize).map { .string(Self.cString(strings, at: $0)) } // DW_FORM_strp
        case 0x0B: return cursor.unsigned(1).map(FormValue.number) // DW_FORM_data1
        case 0x05: return cursor.unsigned(2).map(FormValue.number) // DW_FORM_data2
        case 0x06: return cursor.unsigned(4).map(FormValue.number) // DW_FORM_data4
        case 0x07: return cursor.unsigned(8).map(FormValue.number) // DW_FORM_data8
        case 0x0F: return cursor.uleb().map(FormValue.number) // DW_FORM_udata
        case 0x1E: return cursor.skip(16) ? .other : nil // DW_FORM_data16 (MD5)
        case 0x09: return cursor.uleb().flatMap { cursor.skip(Int(clamping: $0)) ? .other : nil } // DW_FORM_block
        case 0x17: return cursor.unsigned(offsetSize).map { _ in .other } // DW_FORM_sec_offset
        case 0x1A: return cursor.uleb().map { _ in .string("") } // DW_FORM_strx: no unit base here
        case 0x25, 0x26, 0x27, 0x28: // DW_FORM_strx1–4
            return cursor.unsigned(Int(form - 0x24)).map { _ in .string("") }
        default: return nil
        }
    }

    private static func cString(_ bytes: UnsafeRawBufferPointer?, at offset: UInt64) -> String {
        guard let bytes, offset < UInt64(bytes.count) else { return "" }
        var cursor = ByteCursor(bytes, at: Int(offset))
        return cursor.cString() ?? ""
    }

    /// The rows of the program, gathered in sequences (the rows lookups of `targets` read, when given).
    private func decodeProgram(_ header: Header, keepingRowsFor targets: AddressTargets?) -> [LineSequence] {
        var sink = SequenceSink(targets: targets)
        run(header, into: &sink)
        return sink.sequences
    }

    /// Runs the program: one ``LineProgramSink/row(address:file:line:column:isStatement:discriminator:)`` per
    /// `DW_LNS_copy` and special opcode, one ``LineProgramSink/endSequence(at:)`` per `DW_LNE_end_sequence` (and at the
    /// end of a program cut short). Generic, so that each sink's calls are made directly.
    func run<Sink: LineProgramSink>(_ header: Header, into sink: inout Sink) {
        var cursor = ByteCursor(section, at: header.programStart)
        // The registers are locals that no nested function captures, so that they stay in registers: a row is made
        // for every few bytes of a program.
        let defaultIsStatement = header.defaultIsStatement
        var address: UInt64 = 0, file: UInt64 = 1, line: UInt64 = 1, column: UInt64 = 0, discriminator: UInt64 = 0
        var isStatement = defaultIsStatement
        var lastRowAddress: UInt64?
        let minimumLength = header.minimumInstructionLength
        let lineRange = UInt64(header.lineRange)
        let lineBase = header.lineBase
        let opcodeBase = header.opcodeBase
        let programEnd = header.programEnd
        decoding: while cursor.position < programEnd {
            guard let opcode = cursor.byte() else { break }
            if opcode >= opcodeBase {
                let adjusted = UInt64(opcode &- opcodeBase)
                address &+= minimumLength &* (adjusted / lineRange)
                line = UInt64(bitPattern: Int64(bitPattern: line) &+ lineBase &+ Int64(adjusted % lineRange))
                sink.row(
                    address: address, file: file, line: line, column: column, isStatement: isStatement,
                    discriminator: discriminator)
                lastRowAddress = address
                discriminator = 0
                continue
            }
            switch opcode {
            case 0: // extended
                guard let length = cursor.uleb(), length > 0, let subOpcode = cursor.byte() else { break decoding }
                let operandEnd = cursor.position &+ Int(clamping: length - 1)
                guard operandEnd <= programEnd else { break decoding }
                switch subOpcode {
                case 1: // DW_LNE_end_sequence
                    if lastRowAddress != nil { sink.endSequence(at: address) }
                    lastRowAddress = nil
                    (address, file, line, column, discriminator) = (0, 1, 1, 0, 0)
                    isStatement = defaultIsStatement
                case 2: // DW_LNE_set_address
                    guard let value = cursor.unsigned(Int(length - 1)) else { break decoding }
                    address = value
                case 4: // DW_LNE_set_discriminator
                    guard let value = cursor.uleb() else { break decoding }
                    discriminator = value
                default: // define_file, vendor extensions
                    break
                }
                cursor.position = operandEnd
            case 1: // DW_LNS_copy
                sink.row(
                    address: address, file: file, line: line, column: column, isStatement: isStatement,
                    discriminator: discriminator)
                lastRowAddress = address
                discriminator = 0
            case 2: guard let advance = cursor.uleb() else { break decoding }; address &+= minimumLength &* advance
            case 3:
                guard let delta = cursor.sleb() else { break decoding };
                line = UInt64(bitPattern: Int64(bitPattern: line) &+ delta)
            // DW_LNS_set_file
            case 4: guard let value = cursor.uleb() else { break decoding }; file = value; sink.setFile(value)
            case 5: guard let value = cursor.uleb() else { break decoding }; column = value // DW_LNS_set_column
            case 6: isStatement.toggle() // DW_LNS_negate_stmt
            case 8: address &+= minimumLength &* (UInt64(255 - opcodeBase) / lineRange) // DW_LNS_const_add_pc
            // DW_LNS_fixed_advance_pc
            case 9: guard let advance = cursor.unsigned(2) else { break decoding }; address &+= advance
            default:
                // basic_block, prologue_end, epilogue_begin, isa and unknown ones: skip their operands.
                let index = Int(opcode) - 1
                let operands = index < header.standardOpcodeLengths.count ? Int(header.standardOpcodeLengths[index]) : 0
                for _ in 0..<operands { guard cursor.uleb() != nil else { break decoding } }
            }
        }
        // A table cut short keeps its last rows, ending past the last address seen.
        if let lastRowAddress { sink.endSequence(at: lastRowAddress &+ 1) }
    }
}

/// What a line program's rows go to (``LineProgramReader/run(_:into:)``).
protocol LineProgramSink {
    mutating func row(
        address: UInt64, file: UInt64, line: UInt64, column: UInt64, isStatement: Bool, discriminator: UInt64)
    mutating func endSequence(at address: UInt64)
    /// A `DW_LNS_set_file`, for sinks that follow the program's file switches themselves (gdb's line tables do).
    mutating func setFile(_ file: UInt64)
}

extension LineProgramSink {
    mutating func setFile(_ file: UInt64) {}
}

/// The rows as lookups read them: gathered in sequences, and only those `targets` need when given.
private struct SequenceSink: LineProgramSink {
    let targets: AddressTargets?
    var sequences: [LineSequence] = []
    private var rows: [LineRow] = []

    init(targets: AddressTargets?) { self.targets = targets }

    mutating func row(
        address: UInt64, file: UInt64, line: UInt64, column: UInt64, isStatement: Bool, discriminator: UInt64
    ) {
        rows.append(
            LineRow(
                address: FileAddress(address), file: UInt32(truncatingIfNeeded: file),
                line: UInt32(truncatingIfNeeded: line), column: UInt32(truncatingIfNeeded: column)))
    }

    mutating func endSequence(at address: UInt64) {
        let end = FileAddress(address)
        guard let targets else {
            sequences.append(LineSequence(rows: rows, endAddress: end))
            rows = []
            return
        }
        if let kept = LineProgramReader.rows(rows, end: end, neededFor: targets) {
            sequences.append(LineSequence(rows: kept, endAddress: end))
        }
        rows.removeAll(keepingCapacity: true)
    }
}
