internal import CLibDwarf

/// Reads the entries of libdwarf's register tables (`Dwarf_Regtable_Entry3`) as rules.
enum RegisterTableEntry {
    static func canonicalFrameAddress(_ entry: Dwarf_Regtable_Entry3) -> CallFrameRow.CanonicalFrameAddress? {
        switch Int32(entry.dw_value_type) {
        case DW_EXPR_OFFSET, DW_EXPR_VAL_OFFSET:
            return .register(entry.dw_regnum, offset: Int64(bitPattern: entry.dw_offset_or_block_len))
        case DW_EXPR_EXPRESSION, DW_EXPR_VAL_EXPRESSION:
            return .expression(block(entry))
        default:
            return nil
        }
    }

    static func rule(_ entry: Dwarf_Regtable_Entry3) -> CallFrameRow.Rule? {
        let offset = Int64(bitPattern: entry.dw_offset_or_block_len)
        switch Int32(entry.dw_value_type) {
        case DW_EXPR_OFFSET:
            if entry.dw_regnum == DW_FRAME_SAME_VAL { return .sameValue }
            if entry.dw_regnum == DW_FRAME_UNDEFINED_VAL { return .undefined }
            return entry.dw_offset_relevant != 0 ? .savedAt(cfaOffset: offset) : .inRegister(entry.dw_regnum)
        case DW_EXPR_VAL_OFFSET:
            return .isCFA(offset: offset)
        case DW_EXPR_EXPRESSION:
            return .savedAtExpression(block(entry))
        case DW_EXPR_VAL_EXPRESSION:
            return .isExpression(block(entry))
        default:
            return nil
        }
    }

    /// The expression bytes an entry points to (inside the frame section, alive with the session), copied.
    static func block(_ entry: Dwarf_Regtable_Entry3) -> [UInt8] {
        guard let pointer = entry.dw_block_ptr, entry.dw_offset_or_block_len > 0, entry.dw_offset_or_block_len < 1 << 16
        else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: Int(entry.dw_offset_or_block_len)))
    }
}
