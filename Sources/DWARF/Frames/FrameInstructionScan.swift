import PostmortemCore

/// What a listing needs from a CIE's or FDE's call-frame instructions before any row is run: the registers given
/// rules, in the order the instructions first name them, and the addresses rows start at. Decoded here, not by
/// libdwarf's `dwarf_expand_frame_instructions`, which clears a register table of 191 entries for every FDE it
/// expands (a fifth of a large program's symbol-file writing).
enum FrameInstructionScan {
    /// Scans `instructions` (in the reader's byte order), rows starting at `start`, advances counted in
    /// `codeAlignment` units: appends each register given a rule that `registers` lacks, and returns where rows start
    /// (`start`, then each later address an advance moves to). `nil` when an instruction is not one this scan reads (`DW_CFA_set_loc`, whose address is
    /// encoded as the augmentation says, or an unknown or cut-off one): the caller then asks libdwarf.
    static func scan(
        _ instructions: ByteReader, start: UInt64, codeAlignment: UInt64, registers: inout [UInt16]
    ) -> [UInt64]? {
        var starts: [UInt64] = [start]
        var location = start
        var cursor = ByteCursor(instructions, at: 0)
        func name(_ register: UInt64) -> Bool {
            guard register <= UInt64(UInt16.max) else { return false }
            let number = UInt16(register)
            if !registers.contains(number) { registers.append(number) }
            return true
        }
        func advance(_ delta: UInt64) {
            location &+= delta &* codeAlignment
            if location > starts[starts.count - 1] { starts.append(location) }
        }
        while cursor.position < instructions.bytes.count {
            guard let opcode = cursor.byte() else { return nil }
            switch opcode >> 6 {
            case 1: // advance_loc
                advance(UInt64(opcode & 0x3F))
                continue
            case 2: // offset
                guard name(UInt64(opcode & 0x3F)), cursor.uleb() != nil else { return nil }
                continue
            case 3: // restore
                guard name(UInt64(opcode & 0x3F)) else { return nil }
                continue
            default:
                break
            }
            switch opcode {
            case 0x00, 0x0A, 0x0B, 0x2D: // nop, remember_state, restore_state, GNU_window_save
                continue
            case 0x02:
                guard let delta = cursor.unsigned(1) else { return nil }
                advance(delta)
            case 0x03:
                guard let delta = cursor.unsigned(2) else { return nil }
                advance(delta)
            case 0x04:
                guard let delta = cursor.unsigned(4) else { return nil }
                advance(delta)
            case 0x1D: // MIPS_advance_loc8
                guard let delta = cursor.unsigned(8) else { return nil }
                advance(delta)
            case 0x05, 0x14, 0x2F: // offset_extended, val_offset, GNU_negative_offset_extended: register, offset
                guard let register = cursor.uleb(), name(register), cursor.uleb() != nil else { return nil }
            case 0x11, 0x15: // offset_extended_sf, val_offset_sf: register, signed offset
                guard let register = cursor.uleb(), name(register), cursor.sleb() != nil else { return nil }
            case 0x06, 0x07, 0x08: // restore_extended, undefined, same_value
                guard let register = cursor.uleb(), name(register) else { return nil }
            case 0x09: // register: the rule's register, then where its value is
                guard let register = cursor.uleb(), name(register), cursor.uleb() != nil else { return nil }
            case 0x10, 0x16: // expression, val_expression: register, block
                guard let register = cursor.uleb(), name(register), let length = cursor.uleb(),
                    cursor.skip(bytes: length)
                else { return nil }
            case 0x0C: // def_cfa
                guard cursor.uleb() != nil, cursor.uleb() != nil else { return nil }
            case 0x12: // def_cfa_sf
                guard cursor.uleb() != nil, cursor.sleb() != nil else { return nil }
            case 0x0D, 0x0E, 0x2E: // def_cfa_register, def_cfa_offset, GNU_args_size
                guard cursor.uleb() != nil else { return nil }
            case 0x13: // def_cfa_offset_sf
                guard cursor.sleb() != nil else { return nil }
            case 0x0F: // def_cfa_expression
                guard let length = cursor.uleb(), cursor.skip(bytes: length) else { return nil }
            default: // set_loc, and anything unknown
                return nil
            }
        }
        return starts
    }
}

extension ByteCursor {
    /// Steps over `count` bytes; `false` when fewer remain.
    fileprivate mutating func skip(bytes count: UInt64) -> Bool {
        guard count <= UInt64(bytes.count - position) else { return false }
        position += Int(count)
        return true
    }
}
