internal import CLibDwarf

/// Reads register rules as libdwarf states them — the entries of its register tables (`Dwarf_Regtable_Entry3`), and
/// ``FrameRowInterpreter``'s records, which mirror them field by field — as ``CallFrameRow`` rules.
enum RegisterTableEntry {
    /// The fields a rule is read from.
    struct Fields {
        /// `DW_EXPR_OFFSET`, `DW_EXPR_VAL_OFFSET`, `DW_EXPR_EXPRESSION` or `DW_EXPR_VAL_EXPRESSION`.
        var valueType: Int32
        var register: UInt64
        var isOffset: Bool
        var offsetOrLength: UInt64
        /// Where an expression's bytes lie (inside the frame section, alive with it).
        var block: UnsafeRawPointer?

        init(_ entry: Dwarf_Regtable_Entry3) {
            valueType = Int32(entry.dw_value_type)
            register = UInt64(entry.dw_regnum)
            isOffset = entry.dw_offset_relevant != 0
            offsetOrLength = entry.dw_offset_or_block_len
            block = UnsafeRawPointer(entry.dw_block_ptr)
        }

        init(_ record: FrameRowInterpreter.Record) {
            valueType = Int32(record.valueType)
            register = record.register
            isOffset = record.isOffset
            offsetOrLength = record.offsetOrLength
            block = UnsafeRawPointer(bitPattern: record.block)
        }
    }

    static func canonicalFrameAddress(_ entry: Dwarf_Regtable_Entry3) -> CallFrameRow.CanonicalFrameAddress? {
        canonicalFrameAddress(Fields(entry))
    }

    static func rule(_ entry: Dwarf_Regtable_Entry3) -> CallFrameRow.Rule? { rule(Fields(entry)) }

    static func canonicalFrameAddress(_ fields: Fields) -> CallFrameRow.CanonicalFrameAddress? {
        switch fields.valueType {
        case DW_EXPR_OFFSET, DW_EXPR_VAL_OFFSET:
            return .register(
                UInt16(truncatingIfNeeded: fields.register), offset: Int64(bitPattern: fields.offsetOrLength))
        case DW_EXPR_EXPRESSION, DW_EXPR_VAL_EXPRESSION:
            return .expression(block(fields))
        default:
            return nil
        }
    }

    static func rule(_ fields: Fields) -> CallFrameRow.Rule? {
        let offset = Int64(bitPattern: fields.offsetOrLength)
        switch fields.valueType {
        case DW_EXPR_OFFSET:
            if fields.register == DW_FRAME_SAME_VAL { return .sameValue }
            if fields.register == DW_FRAME_UNDEFINED_VAL { return .undefined }
            return fields.isOffset
                ? .savedAt(cfaOffset: offset) : .inRegister(UInt16(truncatingIfNeeded: fields.register))
        case DW_EXPR_VAL_OFFSET:
            return .isCFA(offset: offset)
        case DW_EXPR_EXPRESSION:
            return .savedAtExpression(block(fields))
        case DW_EXPR_VAL_EXPRESSION:
            return .isExpression(block(fields))
        default:
            return nil
        }
    }

    /// The expression bytes a rule points to, copied.
    static func block(_ fields: Fields) -> [UInt8] {
        guard let pointer = fields.block, fields.offsetOrLength > 0, fields.offsetOrLength < 1 << 16 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: Int(fields.offsetOrLength)))
    }
}
