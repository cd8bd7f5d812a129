internal import CLibDwarf
import ObjectFiles
import PostmortemCore

/// Every function (FDE) of an image's call-frame information with all its rows, as a Breakpad symbol file's
/// `STACK CFI` records list them, one function at a time (a large program has a hundred thousand): libdwarf's frame
/// API lists the functions and their CIEs; their rows come from one run of the instructions
/// (``FrameRowInterpreter``, which mirrors libdwarf's rules), or from libdwarf row by row where that does not apply.
package enum CallFrameListing {
    /// One function's rows.
    package struct Description: Sendable {
        /// `.debug_frame` or `.eh_frame`.
        package var section: String
        /// Where the FDE lies in its section: the order the section lists functions in.
        package var sectionOffset: UInt64
        /// The addresses the FDE covers.
        package var range: Range<FileAddress>
        /// The CIE's return-address column.
        package var returnAddressRegister: UInt16
        /// The rows, by address; the first starts at the FDE's start.
        package var rows: [Row]
        /// The rows' register rules, each row's a run (``Row/rules``) sorted by register.
        package var rules: [RegisterRule]
        /// The registers the instructions give rules to, in the order they first do (the CIE's initial instructions,
        /// then the FDE's): the order Breakpad writers list a row's rules in.
        package var registerOrder: [UInt16]
    }

    /// One row: the rules from ``start`` to the next row.
    package struct Row: Sendable {
        /// The first address the row holds for.
        package var start: FileAddress
        /// How the CFA is computed.
        package var canonicalFrameAddress: Rule
        /// Where the row's register rules lie in ``Description/rules``: the registers with a rule (any rule but
        /// undefined: an explicit same-value rule is listed).
        package var rules: Range<Int>
    }

    /// A rule as a listing states it: expressions are told apart by where their bytes lie, not read (a symbol file
    /// cannot state them).
    package enum Rule: Hashable, Sendable {
        /// The register keeps its value.
        case sameValue
        /// For the CFA: the register's value plus the offset. For a register: saved in memory at CFA + offset.
        case savedAt(register: UInt16, offset: Int64)
        /// The value is CFA + offset.
        case isCFA(offset: Int64)
        /// Held in another register.
        case inRegister(UInt16)
        /// Computed by the DWARF expression at `location` (`isValue`: the value itself, not where it is saved).
        case expression(location: UInt, isValue: Bool)
    }

    /// One register's rule in a row.
    package struct RegisterRule: Hashable, Sendable {
        /// The DWARF register number.
        package var register: UInt16
        /// Where the caller's value of the register is.
        package var rule: Rule

        /// `register`'s `rule`.
        package init(register: UInt16, rule: Rule) {
            self.register = register
            self.rule = rule
        }
    }

    /// Calls `body` with each function of the frame sections of `object`: `.debug_frame`'s first, then `.eh_frame`'s,
    /// each in section order (as Mozilla's dump_syms lists them). A file without frame sections has none.
    /// - Returns: the functions left out, each with why (an FDE whose instructions libdwarf cannot run).
    /// - Throws: ``DWARFError`` when libdwarf cannot open the frame sections.
    package static func forEachDescription(of object: ObjectFile, _ body: (Description) -> Void) throws(DWARFError)
        -> [String]
    {
        try forEachDescription(of: object, scanning: true, body)
    }

    /// ``forEachDescription(of:_:)``, the instructions decoded by libdwarf alone when not `scanning` (what tests hold
    /// ``FrameInstructionScan`` to).
    static func forEachDescription(of object: ObjectFile, scanning: Bool, _ body: (Description) -> Void)
        throws(DWARFError) -> [String]
    {
        let access: SectionAccess
        do { access = try SectionAccess(object: object, purpose: .callFrames) } catch  where error.code == .noDebugInfo
        {
            return []
        }
        let handle = try DebugHandle(access: access, path: object.path)
        let byteOrder: Bool? = scanning ? object.isBigEndian : nil
        return Self.read(handle, isBigEndian: byteOrder, body)
    }

    private static let tableSize: Dwarf_Half = 128

    /// - Parameter isBigEndian: the byte order instructions are scanned in; `nil` to leave decoding to libdwarf.
    private static func read(_ handle: DebugHandle, isBigEndian: Bool?, _ body: (Description) -> Void) -> [String] {
        let debug = handle.debug
        // Rules start undefined here (not same-value, as the unwinder's table has them): a register the CFI never names
        // is left out of a row, and one it names "same value" is written as such.
        dwarf_set_frame_rule_table_size(debug, tableSize)
        dwarf_set_frame_rule_initial_value(debug, Dwarf_Half(DW_FRAME_UNDEFINED_VAL))
        dwarf_set_frame_same_value(debug, Dwarf_Half(DW_FRAME_SAME_VAL))
        dwarf_set_frame_undefined_value(debug, Dwarf_Half(DW_FRAME_UNDEFINED_VAL))
        dwarf_set_frame_cfa_value(debug, Dwarf_Half(DW_FRAME_CFA_COL3))
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
            // libdwarf sorts its list by address; the section's order is the FDEs' offsets.
            var ordered: [(offset: Dwarf_Off, fde: Dwarf_Fde)] = []
            for index in 0..<Int(max(fdeCount, 0)) {
                guard let fde = fdes[index] else { continue }
                var (low, length, bytesLength, cieOffset, fdeOffset) = (
                    Dwarf_Addr(0), Dwarf_Unsigned(0), Dwarf_Unsigned(0), Dwarf_Off(0), Dwarf_Off(0)
                )
                var bytes: Dwarf_Ptr?
                var cieIndex: Dwarf_Signed = 0
                var error: Dwarf_Error?
                guard
                    dwarf_get_fde_range(
                        fde, &low, &length, &bytes, &bytesLength, &cieOffset, &cieIndex, &fdeOffset, &error)
                        == DW_DLV_OK
                else {
                    problems.append(handle.failure(error, "an FDE of \(section)").detail)
                    continue
                }
                ordered.append((fdeOffset, fde))
            }
            ordered.sort { $0.offset < $1.offset }
            var entries = [Dwarf_Regtable_Entry3](repeating: Dwarf_Regtable_Entry3(), count: Int(tableSize))
            for (_, fde) in ordered {
                do throws(DWARFError) {
                    if let description = try describe(
                        fde, section: section, entries: &entries, handle: handle, isBigEndian: isBigEndian)
                    {
                        body(description)
                    }
                } catch {
                    problems.append(error.detail)
                }
            }
        }
        return problems
    }

    private static func describe(
        _ fde: Dwarf_Fde, section: String, entries: inout [Dwarf_Regtable_Entry3],
        handle: DebugHandle, isBigEndian: Bool?
    ) throws(DWARFError) -> Description? {
        var error: Dwarf_Error?
        var (low, length) = (Dwarf_Addr(0), Dwarf_Unsigned(0))
        var bytes: Dwarf_Ptr?
        var (bytesLength, cieOffset, fdeOffset) = (Dwarf_Unsigned(0), Dwarf_Off(0), Dwarf_Off(0))
        var cieIndex: Dwarf_Signed = 0
        guard
            dwarf_get_fde_range(fde, &low, &length, &bytes, &bytesLength, &cieOffset, &cieIndex, &fdeOffset, &error)
                == DW_DLV_OK
        else {
            throw handle.failure(error, "an FDE of \(section)")
        }
        let context = "the \(section) entry of 0x\(String(low, radix: 16))"
        let (end, overflow) = low.addingReportingOverflow(length)
        guard length > 0, !overflow else { return nil }
        var cie: Dwarf_Cie?
        guard dwarf_get_cie_of_fde(fde, &cie, &error) == DW_DLV_OK, let cie else {
            throw handle.failure(error, context)
        }
        var augmentation: UnsafeMutablePointer<CChar>?
        var (cieBytes, codeAlignment, instructionsLength) = (Dwarf_Unsigned(0), Dwarf_Unsigned(0), Dwarf_Unsigned(0))
        var dataAlignment: Dwarf_Signed = 0
        var (version, offsetSize, returnAddressRegister) = (Dwarf_Small(0), Dwarf_Half(0), Dwarf_Half(0))
        var instructions: Dwarf_Ptr?
        guard
            dwarf_get_cie_info_b(
                cie, &cieBytes, &version, &augmentation, &codeAlignment, &dataAlignment, &returnAddressRegister,
                &instructions, &instructionsLength, &offsetSize, &error) == DW_DLV_OK
        else {
            throw handle.failure(error, context)
        }
        var order: [UInt16] = []
        _ = operations(
            in: instructions, length: instructionsLength, of: cie, handle: handle, registers: &order, start: low,
            codeAlignment: codeAlignment, isBigEndian: isBigEndian)
        var fdeInstructions: Dwarf_Ptr?
        var fdeInstructionsLength: Dwarf_Unsigned = 0
        var rowStarts: [Dwarf_Addr]?
        if dwarf_get_fde_instr_bytes(fde, &fdeInstructions, &fdeInstructionsLength, &error) == DW_DLV_OK {
            rowStarts = operations(
                in: fdeInstructions, length: fdeInstructionsLength, of: cie, handle: handle, registers: &order,
                start: low, codeAlignment: codeAlignment, isBigEndian: isBigEndian)
        } else {
            handle.discard(error)
        }
        var rows: [Row] = []
        var rules: [RegisterRule] = []
        if rowStarts != nil, let isBigEndian, let fdeInstructions,
            let run = FrameRowInterpreter(
                listedRegisters: UInt64(tableSize), undefinedValue: UInt64(DW_FRAME_UNDEFINED_VAL),
                sameValue: UInt64(DW_FRAME_SAME_VAL), cfaColumn: UInt64(DW_FRAME_CFA_COL3),
                initialValue: UInt64(DW_FRAME_UNDEFINED_VAL)
            ).rows(
                cie: UnsafeRawBufferPointer(
                    start: instructions, count: instructions == nil ? 0 : Int(clamping: instructionsLength)),
                fde: UnsafeRawBufferPointer(start: fdeInstructions, count: Int(clamping: fdeInstructionsLength)),
                isBigEndian: isBigEndian, augmentation: augmentation.map { String(cString: $0) } ?? "",
                codeAlignment: codeAlignment, dataAlignment: Int64(dataAlignment), start: low, end: end,
                registers: order)
        {
            // Every row in one run of the instructions (libdwarf runs them again for each row).
            (rows, rules) = run
        } else if let rowStarts {
            // One evaluation per row, at the addresses the instructions advance to.
            for start in rowStarts where start < end {
                let (row, _) = try self.row(
                    of: fde, at: start, entries: &entries, registers: order, rules: &rules, handle: handle,
                    context: context, wantsNext: false)
                if rows.last?.start != row.start { rows.append(row) } else { rules.removeLast(row.rules.count) }
            }
        } else {
            var address = low
            while address < end {
                let (row, next) = try self.row(
                    of: fde, at: address, entries: &entries, registers: nil, rules: &rules, handle: handle,
                    context: context, wantsNext: true)
                if rows.last?.start != row.start { rows.append(row) } else { rules.removeLast(row.rules.count) }
                // A row that would not move on ends the listing (libdwarf's next row is always later in sound CFI).
                guard let next, next > address else { break }
                address = next
            }
        }
        return Description(
            section: section, sectionOffset: UInt64(fdeOffset), range: FileAddress(low)..<FileAddress(end),
            returnAddressRegister: UInt16(returnAddressRegister), rows: rows, rules: rules, registerOrder: order)
    }

    /// Reads `instructions` (``FrameInstructionScan``, else libdwarf's expansion): appends to `registers` each
    /// register they give a rule to that it lacks, in instruction order, and returns where rows start (`start`, then
    /// each address an advance moves to); `nil` when the instructions cannot be read.
    private static func operations(
        in instructions: Dwarf_Ptr?, length: Dwarf_Unsigned, of cie: Dwarf_Cie, handle: DebugHandle,
        registers: inout [UInt16], start: Dwarf_Addr, codeAlignment: Dwarf_Unsigned, isBigEndian: Bool?
    ) -> [Dwarf_Addr]? {
        var starts: [Dwarf_Addr] = [start]
        guard let instructions, length > 0 else { return starts }
        // Decoded here; libdwarf expands what this does not read (and says why it cannot, if it cannot either).
        var scanned = registers
        let bytes = UnsafeRawBufferPointer(start: instructions, count: Int(clamping: length))
        if let isBigEndian,
            let found = FrameInstructionScan.scan(
                ByteReader(bytes: bytes, isBigEndian: isBigEndian), start: start, codeAlignment: codeAlignment,
                registers: &scanned)
        {
            registers = scanned
            return found
        }
        var operations: UnsafeMutablePointer<Dwarf_Frame_Op>?
        var count: Dwarf_Signed = 0
        var error: Dwarf_Error?
        guard dwarf_expand_frame_instructions(cie, instructions, length, &operations, &count, &error) == DW_DLV_OK,
            let operations
        else {
            handle.discard(error)
            return nil
        }
        defer { dwarf_dealloc(handle.debug, operations, Dwarf_Unsigned(DW_DLA_FRAME_BLOCK)) }
        var location = start
        for index in 0..<Int(max(count, 0)) {
            let operation = operations[index]
            // DW_CFA_offset and DW_CFA_restore carry their register in the opcode; of the extended operations,
            // those that set a register's rule (not the CFA's).
            let setsRule =
                operation.fp_base_op == 2 || operation.fp_base_op == 3
                || (operation.fp_base_op == 0 && Self.ruleSettingOperations.contains(operation.fp_extended_op))
            if setsRule, !registers.contains(operation.fp_register) { registers.append(operation.fp_register) }
            // Advances give their distance in code-alignment units; set_loc gives the address.
            if operation.fp_base_op == 1
                || (operation.fp_base_op == 0 && [0x02, 0x03, 0x04, 0x1D].contains(operation.fp_extended_op))
            {
                location &+= operation.fp_offset &* codeAlignment
            } else if operation.fp_base_op == 0, operation.fp_extended_op == 0x01 {
                location = operation.fp_offset
            } else {
                continue
            }
            if location > starts[starts.count - 1] { starts.append(location) }
        }
        return starts
    }

    /// offset_extended, restore_extended, undefined, same_value, register, expression, offset_extended_sf,
    /// val_offset, val_offset_sf, val_expression, GNU_negative_offset_extended.
    private static let ruleSettingOperations: Set<Dwarf_Small> = [
        0x05, 0x06, 0x07, 0x08, 0x09, 0x10, 0x11, 0x14, 0x15, 0x16, 0x2F
    ]

    /// The row holding at `address`, and where the next row starts (`nil` after the last).
    /// - Parameter entries: room for the register table, reused from row to row.
    /// The row holding at `address` (its rules appended to `rules`), and where the next row starts when `wantsNext`
    /// (`nil` after the last).
    /// - Parameters:
    ///   - entries: room for the register table, reused from row to row.
    ///   - registers: the registers the instructions name (the others keep their undefined start), or `nil` to read all.
    private static func row(
        of fde: Dwarf_Fde, at address: Dwarf_Addr, entries: inout [Dwarf_Regtable_Entry3], registers: [UInt16]?,
        rules: inout [RegisterRule], handle: DebugHandle, context: String,
        wantsNext: Bool
    ) throws(DWARFError) -> (Row, Dwarf_Addr?) {
        var error: Dwarf_Error?
        var rowStart: Dwarf_Addr = 0
        var cfaEntry = Dwarf_Regtable_Entry3()
        let result = entries.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var table = Dwarf_Regtable3(
                rt3_cfa_rule: Dwarf_Regtable_Entry3(), rt3_reg_table_size: tableSize, rt3_rules: buffer.baseAddress)
            let result = dwarf_get_fde_info_for_all_regs3(fde, address, &table, &rowStart, &error)
            cfaEntry = table.rt3_cfa_rule
            return result
        }
        guard result == DW_DLV_OK else { throw handle.failure(error, context) }
        var (valueType, offsetRelevant, register, offset) = (
            Dwarf_Small(0), Dwarf_Signed(0), Dwarf_Signed(0), Dwarf_Signed(0)
        )
        var block: Dwarf_Ptr?
        var (cfaRowStart, subsequent) = (Dwarf_Addr(0), Dwarf_Addr(0))
        var hasMoreRows: Dwarf_Bool = 0
        if wantsNext {
            guard
                dwarf_get_fde_info_for_cfa_reg3_b(
                    fde, address, &valueType, &offsetRelevant, &register, &offset, &block,
                    &cfaRowStart, &hasMoreRows, &subsequent, &error) == DW_DLV_OK
            else {
                throw handle.failure(error, context)
            }
        }
        let cfa: Rule
        switch Int32(cfaEntry.dw_value_type) {
        case DW_EXPR_OFFSET, DW_EXPR_VAL_OFFSET:
            cfa = .savedAt(register: cfaEntry.dw_regnum, offset: Int64(bitPattern: cfaEntry.dw_offset_or_block_len))
        case DW_EXPR_EXPRESSION, DW_EXPR_VAL_EXPRESSION:
            cfa = .expression(location: UInt(bitPattern: cfaEntry.dw_block_ptr), isValue: true)
        default:
            throw DWARFError(
                .malformed, path: handle.path, detail: "\(context): a CFA rule of kind \(cfaEntry.dw_value_type)")
        }
        let first = rules.count
        let failure: DWARFError? = entries.withUnsafeBufferPointer { entries in
            let numbers =
                registers.map { $0.filter { Int($0) < entries.count }.sorted().map(Int.init) }
                ?? Array(0..<entries.count)
            for number in numbers {
                let entry = entries[number]
                let offset = Int64(bitPattern: entry.dw_offset_or_block_len)
                let rule: Rule
                switch Int32(entry.dw_value_type) {
                case DW_EXPR_OFFSET:
                    // Most registers have no rule: undefined names the undefined column.
                    if entry.dw_regnum == DW_FRAME_UNDEFINED_VAL { continue }
                    if entry.dw_regnum == DW_FRAME_SAME_VAL { rule = .sameValue; break }
                    rule =
                        entry.dw_offset_relevant != 0
                        ? .savedAt(register: UInt16(number), offset: offset) : .inRegister(entry.dw_regnum)
                case DW_EXPR_VAL_OFFSET: rule = .isCFA(offset: offset)
                case DW_EXPR_EXPRESSION:
                    rule = .expression(location: UInt(bitPattern: entry.dw_block_ptr), isValue: false)
                case DW_EXPR_VAL_EXPRESSION:
                    rule = .expression(location: UInt(bitPattern: entry.dw_block_ptr), isValue: true)
                default:
                    return DWARFError(
                        .malformed, path: handle.path,
                        detail: "\(context): a rule of kind \(entry.dw_value_type) for register \(number)")
                }
                rules.append(RegisterRule(register: UInt16(number), rule: rule))
            }
            return nil
        }
        if let failure { throw failure }
        let row = Row(start: FileAddress(rowStart), canonicalFrameAddress: cfa, rules: first..<rules.count)
        return (row, hasMoreRows != 0 ? subsequent : nil)
    }
}
