internal import CLibDwarf
import ObjectFiles
import PostmortemCore
import Synchronization

/// The call-frame information of one image, `.eh_frame` first and then `.debug_frame`: what an unwinder asks at each
/// address to find the caller's registers. A stripped binary has it too (its `.eh_frame` is loaded, so never
/// stripped).
///
/// `.eh_frame` is searched through `.eh_frame_hdr` where the file has one (``EHFrameHeaderIndex``: one function's
/// entry read per address); libdwarf's frame API answers the rest (`.debug_frame`, files without the header, entries
/// the index does not read), in one session opened the first time it is needed. Lookups from several threads take
/// turns.
package final class CallFrameTable: Sendable {
    /// The file the rows come from.
    package let path: String
    private let index: EHFrameHeaderIndex?
    /// Whether the file has a `.debug_frame` (libdwarf's to read) besides what the index covers.
    private let hasDebugFrame: Bool
    private let opener: @Sendable () throws(DWARFError) -> Session
    private let state: Mutex<State>

    /// Register table columns: more than any register an ABI's CFI names (AArch64's vector registers are 64–95), fewer
    /// than libdwarf's special column numbers (1034 and up).
    static let tableSize = 128

    /// A libdwarf session and its FDE lists.
    private struct Session {
        var handle: DebugHandle
        var lists: FrameLists
    }

    private struct State {
        /// Rows already worked out, by address (`nil`: no FDE covers it); emptied when it holds ``rowLimit``.
        var rows: [UInt64: CallFrameRow?] = [:]
        var session: Result<Session, DWARFError>?
    }

    private static let rowLimit = 4_096

    /// Reads the frame sections of `object`.
    /// - Throws: ``DWARFError`` with ``DWARFError/Code/noDebugInfo`` when the file has neither `.eh_frame` nor
    ///   `.debug_frame`, or when neither lists a function; another code when libdwarf cannot read them.
    /// - Parameters:
    ///   - contents: the file's bytes when they are held in memory (an image read from a process: the vDSO); `nil`:
    ///     the file at `object.path` is read.
    ///   - searchesHeader: whether `.eh_frame_hdr` is searched (what tests hold the index to: libdwarf alone when false).
    package init(object: ObjectFile, contents: ImmutableBytes? = nil, searchesHeader: Bool = true) throws(DWARFError) {
        let file: ImmutableBytes
        if let contents {
            file = contents
        } else {
            do { file = try ImmutableBytes(mapping: object.path) } catch {
                throw DWARFError(.cannotOpen, path: object.path, detail: error.detail)
            }
        }
        path = object.path
        index =
            !searchesHeader
            ? nil
            : EHFrameHeaderIndex(
                object: object, file: file,
                interpreter: FrameRowInterpreter(
                    listedRegisters: UInt64(Self.tableSize), undefinedValue: UInt64(DW_FRAME_UNDEFINED_VAL),
                    sameValue: UInt64(DW_FRAME_SAME_VAL), cfaColumn: UInt64(DW_FRAME_CFA_COL3),
                    initialValue: UInt64(DW_FRAME_SAME_VAL)))
        let frameSections = [object.dwarfSectionName("frame"), ".zdebug_frame"]
        hasDebugFrame = object.sections.contains { frameSections.contains($0.name) && $0.occupiesFile && $0.size > 0 }
        opener = { () throws(DWARFError) -> Session in
            let access = try SectionAccess(object: object, purpose: .callFrames, contents: file)
            let handle = try DebugHandle(access: access, path: object.path)
            let lists = try FrameLists(handle)
            guard !lists.isEmpty else {
                throw DWARFError(.noDebugInfo, path: object.path, detail: "no call-frame information")
            }
            return Session(handle: handle, lists: lists)
        }
        var state = State()
        if index == nil {
            // Without the index libdwarf answers everything: a file it cannot read fails here, as it always did.
            state.session = .success(try opener())
        }
        self.state = Mutex(state)
    }

    /// The row that holds at `address`: from the first section with a function (FDE) covering it; `nil` when none does.
    /// - Throws: ``DWARFError`` when the function's instructions cannot be read.
    package func row(at address: FileAddress) throws(DWARFError) -> CallFrameRow? {
        try state.withLock { state throws(DWARFError) -> CallFrameRow? in
            // A recursion walks the same few addresses hundreds of times: each row is worked out once.
            if let known = state.rows[address.rawValue] { return known }
            let row = try row(at: address, state: &state)
            if state.rows.count >= Self.rowLimit { state.rows.removeAll(keepingCapacity: true) }
            state.rows[address.rawValue] = .some(row)
            return row
        }
    }

    private func row(at address: FileAddress, state: inout State) throws(DWARFError) -> CallFrameRow? {
        switch index?.row(at: address.rawValue) {
        case .row(let row): return row
        case .noFunction where !hasDebugFrame: return nil
        case .noFunction, .unread, nil: break
        }
        let session: Session
        switch state.session {
        case .success(let opened): session = opened
        case .failure(let error): throw error
        case nil:
            do throws(DWARFError) {
                session = try opener()
                state.session = .success(session)
            } catch {
                state.session = .failure(error)
                throw error
            }
        }
        return try session.lists.row(at: address, handle: session.handle)
    }
}

/// libdwarf's FDE lists of one session, freed before it (each keeps its session alive).
private final class FrameLists {
    struct List {
        var section: String
        var cies: UnsafeMutablePointer<Dwarf_Cie?>?
        var cieCount: Dwarf_Signed
        var fdes: UnsafeMutablePointer<Dwarf_Fde?>?
        var fdeCount: Dwarf_Signed
    }

    static let tableSize = Dwarf_Half(CallFrameTable.tableSize)

    private let handle: DebugHandle
    private var debug: Dwarf_Debug { handle.debug }
    private var lists: [List] = []

    var isEmpty: Bool { lists.allSatisfy { $0.fdeCount == 0 } }

    init(_ handle: DebugHandle) throws(DWARFError) {
        self.handle = handle
        dwarf_set_frame_rule_table_size(debug, Self.tableSize)
        dwarf_set_frame_rule_initial_value(debug, Dwarf_Half(DW_FRAME_SAME_VAL))
        dwarf_set_frame_same_value(debug, Dwarf_Half(DW_FRAME_SAME_VAL))
        dwarf_set_frame_undefined_value(debug, Dwarf_Half(DW_FRAME_UNDEFINED_VAL))
        dwarf_set_frame_cfa_value(debug, Dwarf_Half(DW_FRAME_CFA_COL3))
        for (section, getList) in [(".eh_frame", dwarf_get_fde_list_eh), (".debug_frame", dwarf_get_fde_list)] {
            var list = List(section: section, cies: nil, cieCount: 0, fdes: nil, fdeCount: 0)
            var error: Dwarf_Error?
            let result = getList(debug, &list.cies, &list.cieCount, &list.fdes, &list.fdeCount, &error)
            switch result {
            case DW_DLV_OK: lists.append(list)
            case DW_DLV_NO_ENTRY: continue
            default:
                // One section unreadable leaves the other: a damaged .debug_frame must not cost .eh_frame's rows.
                handle.discard(error)
            }
        }
    }

    deinit {
        for list in lists { dwarf_fde_cie_list_dealloc(debug, list.cies, list.cieCount, list.fdes, list.fdeCount) }
    }

    func row(at address: FileAddress, handle: DebugHandle) throws(DWARFError) -> CallFrameRow? {
        for list in lists where list.fdeCount > 0 {
            var fde: Dwarf_Fde?
            var low: Dwarf_Addr = 0
            var high: Dwarf_Addr = 0
            var error: Dwarf_Error?
            let found = dwarf_get_fde_at_pc(list.fdes, address.rawValue, &fde, &low, &high, &error)
            guard found == DW_DLV_OK, let fde else {
                handle.discard(error)
                continue
            }
            // libdwarf's high address is inclusive; a damaged FDE may give one below the low one, or the last address.
            let end = high >= low ? (high == .max ? high : high + 1) : low
            return try row(of: fde, at: address, function: low..<end, section: list.section, handle: handle)
        }
        return nil
    }

    private func row(
        of fde: Dwarf_Fde, at address: FileAddress, function: Range<UInt64>, section: String,
        handle: DebugHandle
    ) throws(DWARFError) -> CallFrameRow {
        let context = "the \(section) entry of 0x\(String(function.lowerBound, radix: 16))"
        var (returnAddressRegister, isSignalFrame) = (Dwarf_Half(0), false)
        var cie: Dwarf_Cie?
        var error: Dwarf_Error?
        guard dwarf_get_cie_of_fde(fde, &cie, &error) == DW_DLV_OK, let cie else {
            throw handle.failure(error, context)
        }
        var augmentation: UnsafeMutablePointer<CChar>?
        var (bytes, codeAlignment, instructionsLength) = (Dwarf_Unsigned(0), Dwarf_Unsigned(0), Dwarf_Unsigned(0))
        var dataAlignment: Dwarf_Signed = 0
        var (version, offsetSize) = (Dwarf_Small(0), Dwarf_Half(0))
        var instructions: Dwarf_Ptr?
        guard
            dwarf_get_cie_info_b(
                cie, &bytes, &version, &augmentation, &codeAlignment, &dataAlignment, &returnAddressRegister,
                &instructions, &instructionsLength, &offsetSize, &error) == DW_DLV_OK
        else {
            throw handle.failure(error, context)
        }
        // The augmentation string ("zR", "zPLR", "zRS"): `S` marks a signal trampoline's frame.
        if let augmentation {
            let text = String(cString: augmentation)
            isSignalFrame = text.hasPrefix("z") && text.contains("S")
        }
        guard returnAddressRegister < Self.tableSize else {
            throw DWARFError(
                .malformed, path: handle.path, detail: "\(context): return address column \(returnAddressRegister)")
        }
        var entries = [Dwarf_Regtable_Entry3](repeating: Dwarf_Regtable_Entry3(), count: Int(Self.tableSize))
        var rowStart: Dwarf_Addr = 0
        var cfaEntry = Dwarf_Regtable_Entry3()
        let result = entries.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var table = Dwarf_Regtable3(
                rt3_cfa_rule: Dwarf_Regtable_Entry3(), rt3_reg_table_size: Self.tableSize, rt3_rules: buffer.baseAddress
            )
            let result = dwarf_get_fde_info_for_all_regs3(fde, address.rawValue, &table, &rowStart, &error)
            cfaEntry = table.rt3_cfa_rule
            return result
        }
        guard result == DW_DLV_OK else { throw handle.failure(error, context) }
        guard let canonicalFrameAddress = RegisterTableEntry.canonicalFrameAddress(cfaEntry) else {
            throw DWARFError(
                .malformed, path: handle.path, detail: "\(context): a CFA rule of kind \(cfaEntry.dw_value_type)")
        }
        var rules: [UInt16: CallFrameRow.Rule] = [:]
        for (register, entry) in entries.enumerated() {
            guard let rule = RegisterTableEntry.rule(entry) else {
                throw DWARFError(
                    .malformed, path: handle.path,
                    detail: "\(context): a rule of kind \(entry.dw_value_type) for register \(register)")
            }
            if rule != .sameValue { rules[UInt16(register)] = rule }
        }
        return CallFrameRow(
            start: FileAddress(rowStart), function: FileAddress(function.lowerBound)..<FileAddress(function.upperBound),
            canonicalFrameAddress: canonicalFrameAddress, rules: rules,
            returnAddressRegister: UInt16(returnAddressRegister), isSignalFrame: isSignalFrame, section: section)
    }
}
