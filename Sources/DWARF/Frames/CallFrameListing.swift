internal import CLibDwarf
import ObjectFiles
public import PostmortemCore

/// Every function (FDE) of an image's call-frame information with all its rows, as a Breakpad symbol file's
/// `STACK CFI` records list them; read with libdwarf's frame API.
public struct CallFrameListing: Sendable {
    /// One function's rows.
    public struct Description: Sendable {
        /// `.debug_frame` or `.eh_frame`.
        public var section: String
        /// Where the FDE lies in its section: the order the section lists functions in.
        public var sectionOffset: UInt64
        /// The addresses the FDE covers.
        public var range: Range<FileAddress>
        /// The CIE's return-address column.
        public var returnAddressRegister: UInt16
        /// The rows, by address; the first starts at the FDE's start.
        public var rows: [Row]
        /// The registers the instructions give rules to, in the order they first do (the CIE's initial instructions,
        /// then the FDE's): the order Breakpad writers list a row's rules in.
        public var registerOrder: [UInt16]
    }

    /// One row: the rules from ``start`` to the next row.
    public struct Row: Sendable {
        /// The first address the row holds for.
        public var start: FileAddress
        /// How the CFA is computed.
        public var canonicalFrameAddress: CallFrameRow.CanonicalFrameAddress
        /// The registers with a rule (any rule but undefined: an explicit same-value rule is listed), by DWARF number.
        public var rules: [UInt16: CallFrameRow.Rule]
    }

    /// `.debug_frame`'s functions first, then `.eh_frame`'s, each in section order (as Mozilla's dump_syms lists them).
    public var descriptions: [Description]
    /// Functions left out, each with why (an FDE whose instructions libdwarf cannot run).
    public var problems: [String]

    /// Reads the frame sections of `object`; a file without any gives an empty listing.
    /// - Throws: ``DWARFError`` when libdwarf cannot open the frame sections.
    public init(object: ObjectFile) throws(DWARFError) {
        let access: SectionAccess
        do { access = try SectionAccess(object: object, purpose: .callFrames) } catch where error.code == .noDebugInfo {
            descriptions = []
            problems = []
            return
        }
        let handle = try DebugHandle(access: access, path: object.path)
        (descriptions, problems) = handle.run { Self.read(handle) }
    }

    private static let tableSize: Dwarf_Half = 128

    private static func read(_ handle: DebugHandle) -> ([Description], [String]) {
        let debug = handle.debug
        // Rules start undefined here (not same-value, as the unwinder's table has them): a register the CFI never names
        // is left out of a row, and one it names "same value" is written as such.
        dwarf_set_frame_rule_table_size(debug, tableSize)
        dwarf_set_frame_rule_initial_value(debug, Dwarf_Half(DW_FRAME_UNDEFINED_VAL))
        dwarf_set_frame_same_value(debug, Dwarf_Half(DW_FRAME_SAME_VAL))
        dwarf_set_frame_undefined_value(debug, Dwarf_Half(DW_FRAME_UNDEFINED_VAL))
        dwarf_set_frame_cfa_value(debug, Dwarf_Half(DW_FRAME_CFA_COL3))
        var descriptions: [Description] = []
        var problems: [String] = []
        for (section, getList) in [(".debug_frame", dwarf_get_fde_list), (".eh_frame", dwarf_get_fde_list_eh)] {
            var cies: UnsafeMutablePointer<Dwarf_Cie?>?
            var fdes: UnsafeMutablePointer<Dwarf_Fde?>?
            var (cieCount, fdeCount) = (Dwarf_Signed(0), Dwarf_Signed(0))
            var error: Dwarf_Error?
            guard getList(debug, &cies, &cieCount, &fdes, &fdeCount, &error) == DW_DLV_OK, let fdes else {
                if let error { problems.append("\(section): \(String(cString: dwarf_errmsg(error)))") }
                handle.discard(error)
                continue
            }
            defer { dwarf_fde_cie_list_dealloc(debug, cies, cieCount, fdes, fdeCount) }
            var listed: [Description] = []
            for index in 0..<Int(max(fdeCount, 0)) {
                guard let fde = fdes[index] else { continue }
                do throws(DWARFError) {
                    if let description = try describe(fde, section: section, handle: handle) { listed.append(description) }
                } catch {
                    problems.append(error.detail)
                }
            }
            descriptions += listed.sorted { $0.sectionOffset < $1.sectionOffset }
        }
        return (descriptions, problems)
    }

    private static func describe(_ fde: Dwarf_Fde, section: String, handle: DebugHandle) throws(DWARFError) -> Description? {
        var error: Dwarf_Error?
        var (low, length) = (Dwarf_Addr(0), Dwarf_Unsigned(0))
        var bytes: Dwarf_Ptr?
        var (bytesLength, cieOffset, fdeOffset) = (Dwarf_Unsigned(0), Dwarf_Off(0), Dwarf_Off(0))
        var cieIndex: Dwarf_Signed = 0
        guard dwarf_get_fde_range(fde, &low, &length, &bytes, &bytesLength, &cieOffset, &cieIndex, &fdeOffset, &error) == DW_DLV_OK else {
            throw handle.failure(error, "an FDE of \(section)")
        }
        let context = "the \(section) entry of 0x\(String(low, radix: 16))"
        let (end, overflow) = low.addingReportingOverflow(length)
        guard length > 0, !overflow else { return nil }
        var cie: Dwarf_Cie?
        guard dwarf_get_cie_of_fde(fde, &cie, &error) == DW_DLV_OK, let cie else { throw handle.failure(error, context) }
        var augmentation: UnsafeMutablePointer<CChar>?
        var (cieBytes, codeAlignment, instructionsLength) = (Dwarf_Unsigned(0), Dwarf_Unsigned(0), Dwarf_Unsigned(0))
        var dataAlignment: Dwarf_Signed = 0
        var (version, offsetSize, returnAddressRegister) = (Dwarf_Small(0), Dwarf_Half(0), Dwarf_Half(0))
        var instructions: Dwarf_Ptr?
        guard dwarf_get_cie_info_b(cie, &cieBytes, &version, &augmentation, &codeAlignment, &dataAlignment, &returnAddressRegister,
                                   &instructions, &instructionsLength, &offsetSize, &error) == DW_DLV_OK else {
            throw handle.failure(error, context)
        }
        var rows: [Row] = []
        var address = low
        while address < end {
            let (row, next) = try self.row(of: fde, at: address, handle: handle, context: context)
            if rows.last?.start != row.start { rows.append(row) }
            // A row that would not move on ends the listing (libdwarf's next row is always later in sound CFI).
            guard let next, next > address else { break }
            address = next
        }
        var order: [UInt16] = []
        registers(in: instructions, length: instructionsLength, of: cie, handle: handle, into: &order)
        var fdeInstructions: Dwarf_Ptr?
        var fdeInstructionsLength: Dwarf_Unsigned = 0
        if dwarf_get_fde_instr_bytes(fde, &fdeInstructions, &fdeInstructionsLength, &error) == DW_DLV_OK {
            registers(in: fdeInstructions, length: fdeInstructionsLength, of: cie, handle: handle, into: &order)
        } else {
            handle.discard(error)
        }
        return Description(section: section, sectionOffset: UInt64(fdeOffset), range: FileAddress(low)..<FileAddress(end),
                           returnAddressRegister: UInt16(returnAddressRegister), rows: rows, registerOrder: order)
    }

    /// Appends to `order` each register that `instructions` give a rule to and `order` lacks, in instruction order.
    private static func registers(in instructions: Dwarf_Ptr?, length: Dwarf_Unsigned, of cie: Dwarf_Cie, handle: DebugHandle,
                                  into order: inout [UInt16]) {
        guard let instructions, length > 0 else { return }
        var operations: UnsafeMutablePointer<Dwarf_Frame_Op>?
        var count: Dwarf_Signed = 0
        var error: Dwarf_Error?
        guard dwarf_expand_frame_instructions(cie, instructions, length, &operations, &count, &error) == DW_DLV_OK, let operations else {
            handle.discard(error)
            return
        }
        defer { dwarf_dealloc(handle.debug, operations, Dwarf_Unsigned(DW_DLA_FRAME_BLOCK)) }
        for index in 0..<Int(max(count, 0)) {
            let operation = operations[index]
            // DW_CFA_offset and DW_CFA_restore carry their register in the opcode; of the extended operations,
            // those that set a register's rule (not the CFA's).
            let setsRule = operation.fp_base_op == 2 || operation.fp_base_op == 3
                || (operation.fp_base_op == 0 && Self.ruleSettingOperations.contains(operation.fp_extended_op))
            if setsRule, !order.contains(operation.fp_register) { order.append(operation.fp_register) }
        }
    }

    /// offset_extended, restore_extended, undefined, same_value, register, expression, offset_extended_sf,
    /// val_offset, val_offset_sf, val_expression, GNU_negative_offset_extended.
    private static let ruleSettingOperations: Set<Dwarf_Small> = [0x05, 0x06, 0x07, 0x08, 0x09, 0x10, 0x11, 0x14, 0x15, 0x16, 0x2F]

    /// The row holding at `address`, and where the next row starts (`nil` after the last).
    private static func row(of fde: Dwarf_Fde, at address: Dwarf_Addr, handle: DebugHandle,
                            context: String) throws(DWARFError) -> (Row, Dwarf_Addr?) {
        var error: Dwarf_Error?
        var entries = [Dwarf_Regtable_Entry3](repeating: Dwarf_Regtable_Entry3(), count: Int(tableSize))
        var rowStart: Dwarf_Addr = 0
        var cfaEntry = Dwarf_Regtable_Entry3()
        let result = entries.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var table = Dwarf_Regtable3(rt3_cfa_rule: Dwarf_Regtable_Entry3(), rt3_reg_table_size: tableSize, rt3_rules: buffer.baseAddress)
            let result = dwarf_get_fde_info_for_all_regs3(fde, address, &table, &rowStart, &error)
            cfaEntry = table.rt3_cfa_rule
            return result
        }
        guard result == DW_DLV_OK else { throw handle.failure(error, context) }
        var (valueType, offsetRelevant, register, offset) = (Dwarf_Small(0), Dwarf_Signed(0), Dwarf_Signed(0), Dwarf_Signed(0))
        var block: Dwarf_Ptr?
        var (cfaRowStart, subsequent) = (Dwarf_Addr(0), Dwarf_Addr(0))
        var hasMoreRows: Dwarf_Bool = 0
        guard dwarf_get_fde_info_for_cfa_reg3_b(fde, address, &valueType, &offsetRelevant, &register, &offset, &block,
                                                &cfaRowStart, &hasMoreRows, &subsequent, &error) == DW_DLV_OK else {
            throw handle.failure(error, context)
        }
        guard let canonicalFrameAddress = RegisterTableEntry.canonicalFrameAddress(cfaEntry) else {
            throw DWARFError(.malformed, path: handle.path, detail: "\(context): a CFA rule of kind \(cfaEntry.dw_value_type)")
        }
        var rules: [UInt16: CallFrameRow.Rule] = [:]
        for (number, entry) in entries.enumerated() {
            guard let rule = RegisterTableEntry.rule(entry) else {
                throw DWARFError(.malformed, path: handle.path, detail: "\(context): a rule of kind \(entry.dw_value_type) for register \(number)")
            }
            if rule != .undefined { rules[UInt16(number)] = rule }
        }
        let row = Row(start: FileAddress(rowStart), canonicalFrameAddress: canonicalFrameAddress, rules: rules)
        return (row, hasMoreRows != 0 ? subsequent : nil)
    }
}
