/// Reads just enough of a raw `.debug_line` program to mend one libdwarf 20210528 mistake: in a
/// DWARF 5 table it starts every sequence with the file register at 0, where DWARF 5 (6.2.2) says 1.
/// The probe tells, for each sequence, whether the program sets the file before the sequence's first
/// row; where it does not, the rows libdwarf reports with file 0 up to the first file change belong to file 1.
struct LineProgramProbe<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
    /// `.debug_line`: an array, or the mapped section in place.
    let bytes: Bytes

    /// For each sequence of the line program at `offset`, in program order: true when its first row
    /// comes before any `DW_LNS_set_file`. `nil` when the program cannot be read (the rows are then
    /// left as libdwarf gave them).
    func sequencesStartingWithDefaultFile(at offset: Int) -> [Bool]? {
        var cursor = Cursor(bytes: bytes, position: offset)
        guard var unitLength = cursor.unsigned(4) else { return nil }
        var offsetSize = 4
        if unitLength == 0xFFFF_FFFF {
            guard let length = cursor.unsigned(8) else { return nil }
            unitLength = length
            offsetSize = 8
        }
        let unitEnd = cursor.position + Int(clamping: unitLength)
        guard let version = cursor.unsigned(2), version >= 2, version <= 5 else { return nil }
        if version >= 5 { guard cursor.skip(2) else { return nil } }  // address_size, segment_selector_size
        guard let headerLength = cursor.unsigned(offsetSize) else { return nil }
        let programStart = cursor.position + Int(clamping: headerLength)
        guard cursor.skip(version >= 4 ? 4 : 3),  // minimum_instruction_length, [maximum_operations_per_instruction], default_is_stmt, line_base
              cursor.skip(1), let opcodeBase = cursor.byte(), opcodeBase > 0 else { return nil }
        var standardLengths: [UInt8] = []
        for _ in 1..<Int(opcodeBase) {
            guard let length = cursor.byte() else { return nil }
            standardLengths.append(length)
        }
        cursor.position = programStart
        let end = min(unitEnd, bytes.count)
        var flags: [Bool] = []
        // State of the sequence being decoded: has it emitted a row, and did the file change before that?
        var emittedRow = false
        var fileSetBeforeFirstRow = false
        while cursor.position < end {
            guard let opcode = cursor.byte() else { return nil }
            switch opcode {
            case opcodeBase...:                                 // special opcode: emits a row
                emittedRow = true
            case 0:                                             // extended opcode
                guard let length = cursor.uleb(), length > 0, let subOpcode = cursor.byte() else { return nil }
                guard cursor.skip(Int(clamping: length) - 1) else { return nil }
                if subOpcode == 1 {                             // DW_LNE_end_sequence: a row, then reset
                    flags.append(!fileSetBeforeFirstRow)
                    emittedRow = false
                    fileSetBeforeFirstRow = false
                }
            case 1:                                             // DW_LNS_copy emits a row
                emittedRow = true
            case 4:                                             // DW_LNS_set_file
                guard cursor.uleb() != nil else { return nil }
                if !emittedRow { fileSetBeforeFirstRow = true }
            case 9:                                             // DW_LNS_fixed_advance_pc: a uhalf
                guard cursor.skip(2) else { return nil }
            default:
                let operands = Int(opcode) - 1 < standardLengths.count ? Int(standardLengths[Int(opcode) - 1]) : 0
                for _ in 0..<operands { guard cursor.uleb() != nil else { return nil } }
            }
        }
        return flags
    }

    private struct Cursor {
        let bytes: Bytes
        var position: Int

        mutating func byte() -> UInt8? {
            guard position >= 0, position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func unsigned(_ size: Int) -> UInt64? {
            var value: UInt64 = 0
            for index in 0..<size {
                guard let byte = byte() else { return nil }
                value |= UInt64(byte) << (8 * index)
            }
            return value
        }

        /// An unsigned LEB128 value; signed ones skip the same way.
        mutating func uleb() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let byte = byte() {
                if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, position + count <= bytes.count else { return false }
            position += count
            return true
        }
    }
}
