import PostmortemCore

/// Runs a CIE's initial instructions and an FDE's instructions once, front to back, into every row of the function,
/// each rule as libdwarf 20210528's `dwarf_get_fde_info_for_all_regs3` states it (its rule records mirrored field by
/// field, then converted as ``CallFrameListing`` converts libdwarf's). libdwarf runs the instructions again from the
/// start for each row and allocates and clears two 191-entry tables each time: most of a large program's symbol-file
/// writing. Whatever this does not mirror exactly (an unknown operation or augmentation, `DW_CFA_set_loc`, a register
/// beyond libdwarf's table, an advance in a CIE) gives `nil`, and the caller asks libdwarf row by row.
struct FrameRowInterpreter {
    /// A register's rule as libdwarf records it (`struct Dwarf_Reg_Rule_s`).
    struct Record: Equatable {
        var isOffset = false
        /// `DW_EXPR_OFFSET` 0, `DW_EXPR_VAL_OFFSET` 1, `DW_EXPR_EXPRESSION` 2, `DW_EXPR_VAL_EXPRESSION` 3.
        var valueType: UInt8 = 0
        var register: UInt64
        var offsetOrLength: UInt64 = 0
        var block: UInt = 0
    }

    /// libdwarf's register table size (`DW_FRAME_LAST_REG_NUM`: smaller sizes are raised to it).
    static let libdwarfTableSize: UInt64 = 191
    /// The columns read back (the listing's table).
    let listedRegisters: UInt64
    /// libdwarf's numbers for the undefined and same-value rules, and the CFA's column.
    let undefinedValue: UInt64
    let sameValue: UInt64
    let cfaColumn: UInt64
    /// The rule registers (and the CFA) start with before any instruction (`dwarf_set_frame_rule_initial_value`).
    let initialValue: UInt64

    /// The rows of a function: `cie` and `fde` are the instruction bytes (their addresses are what expression rules
    /// point at), `registers` the listing's register order. `nil` when the instructions hold anything not mirrored.
    func rows(
        cie: UnsafeRawBufferPointer, fde: UnsafeRawBufferPointer, isBigEndian: Bool, augmentation: String,
        codeAlignment: UInt64, dataAlignment: Int64, start: UInt64, end: UInt64, registers: [UInt16]
    ) -> (rows: [CallFrameListing.Row], rules: [CallFrameListing.RegisterRule])? {
        guard augmentation.isEmpty || augmentation.hasPrefix("z") || augmentation == "eh" else { return nil }
        let context = context(codeAlignment: codeAlignment, dataAlignment: dataAlignment)
        guard var state = initialState(cie, isBigEndian: isBigEndian, context: context) else { return nil }
        let initial = state
        var location = start
        var emitted: [(start: UInt64, state: State)] = []
        let finished = run(
            fde, isBigEndian: isBigEndian, context: context, initial: initial, state: &state, start: start
        ) { target, current in
            // An advance that moves on closes the row so far.
            guard target > location else { return true }
            emitted.append((location, current))
            location = target
            return true
        }
        guard finished else { return nil }
        emitted.append((location, state))
        let listed = registers.filter { UInt64($0) < listedRegisters }.sorted()
        var rows: [CallFrameListing.Row] = []
        var rules: [CallFrameListing.RegisterRule] = []
        for (rowStart, rowState) in emitted where rowStart < end {
            guard let cfa = Self.cfaRule(rowState.cfa) else { return nil }
            let first = rules.count
            for register in listed {
                let record = rowState.record(of: UInt64(register), initial: Record(register: initialValue))
                guard let rule = rule(record, column: register) else { return nil }
                if let rule { rules.append(CallFrameListing.RegisterRule(register: register, rule: rule)) }
            }
            rows.append(
                CallFrameListing.Row(
                    start: FileAddress(rowStart), canonicalFrameAddress: cfa, rules: first..<rules.count))
        }
        return (rows, rules)
    }

    /// The rules in effect at `address` of a function starting at `start`, and where their row starts: the CIE's
    /// instructions, then the FDE's up to the last advance that does not pass `address` (libdwarf's search for one
    /// address, `search_pc`). `nil` when the instructions hold anything not mirrored before that point.
    func state(
        at address: UInt64, cie: UnsafeRawBufferPointer, fde: UnsafeRawBufferPointer, isBigEndian: Bool,
        codeAlignment: UInt64, dataAlignment: Int64, start: UInt64
    ) -> (rowStart: UInt64, state: State)? {
        let context = context(codeAlignment: codeAlignment, dataAlignment: dataAlignment)
        guard var state = initialState(cie, isBigEndian: isBigEndian, context: context) else { return nil }
        var location = start
        var found: State?
        let finished = run(
            fde, isBigEndian: isBigEndian, context: context, initial: state, state: &state, start: start
        ) { target, current in
            // The row holding at `address` ends where an advance passes it: the instructions after it are not run.
            guard target > address else {
                location = target
                return true
            }
            found = current
            return false
        }
        guard finished else { return nil }
        return (location, found ?? state)
    }

    private func context(codeAlignment: UInt64, dataAlignment: Int64) -> Context {
        Context(
            codeAlignment: codeAlignment, dataAlignment: UInt64(bitPattern: dataAlignment), cfaColumn: cfaColumn,
            undefinedValue: undefinedValue, sameValue: sameValue, initialValue: initialValue)
    }

    /// The CIE's instructions run once into the initial rules (an advance there has no row to belong to).
    private func initialState(_ cie: UnsafeRawBufferPointer, isBigEndian: Bool, context: Context) -> State? {
        var state = State(cfa: Record(register: initialValue), rules: [])
        guard run(cie, isBigEndian: isBigEndian, context: context, initial: nil, state: &state, start: 0, advanced: nil)
        else {
            return nil
        }
        return state
    }

    /// The CFA's rule as ``CallFrameListing`` reads libdwarf's; `nil` for a kind it refuses.
    private static func cfaRule(_ record: Record) -> CallFrameListing.Rule? {
        switch record.valueType {
        case 0, 1:
            .savedAt(
                register: UInt16(truncatingIfNeeded: record.register), offset: Int64(bitPattern: record.offsetOrLength))
        case 2, 3: .expression(location: record.block, isValue: true)
        default: nil
        }
    }

    /// A register's rule as ``CallFrameListing`` reads libdwarf's: `.some(nil)` for undefined (left out).
    private func rule(_ record: Record, column: UInt16) -> CallFrameListing.Rule?? {
        let offset = Int64(bitPattern: record.offsetOrLength)
        switch record.valueType {
        case 0:
            if record.register == undefinedValue { return .some(nil) }
            if record.register == sameValue { return .sameValue }
            return record.isOffset
                ? .savedAt(register: column, offset: offset) : .inRegister(UInt16(truncatingIfNeeded: record.register))
        case 1: return .isCFA(offset: offset)
        case 2: return .expression(location: record.block, isValue: false)
        case 3: return .expression(location: record.block, isValue: true)
        default: return nil
        }
    }

    /// The rules at one point: the CFA's, and those of registers whose rule is not the initial value.
    struct State {
        var cfa: Record
        var rules: [(register: UInt64, record: Record)]

        func record(of register: UInt64, initial: Record) -> Record {
            rules.first { $0.register == register }?.record ?? initial
        }

        mutating func set(_ register: UInt64, _ record: Record) {
            if let index = rules.firstIndex(where: { $0.register == register }) {
                rules[index].record = record
            } else {
                rules.append((register, record))
            }
        }
    }

    private struct Context {
        var codeAlignment: UInt64
        var dataAlignment: UInt64
        var cfaColumn: UInt64
        var undefinedValue: UInt64
        var sameValue: UInt64
        var initialValue: UInt64
    }

    /// Runs `instructions` on `state` from the address `start`; `advanced` hears each advance's target and the rules
    /// before it, and answers whether to go on (CIE instructions have none to hear: `nil`, and an advance there is not
    /// mirrored). `false` when an instruction is not mirrored. `initial` is the CIE's state (for restores), `nil` in
    /// the CIE.
    private func run(
        _ instructions: UnsafeRawBufferPointer, isBigEndian: Bool, context: Context, initial: State?,
        state: inout State, start: UInt64, advanced: ((UInt64, State) -> Bool)?
    ) -> Bool {
        var cursor = ByteCursor(ByteReader(bytes: instructions, isBigEndian: isBigEndian), at: 0)
        var location = start
        var stack: [State] = []
        var stopped = false
        let base = UInt(bitPattern: instructions.baseAddress)
        func valid(_ register: UInt64) -> Bool { register < Self.libdwarfTableSize }
        func advance(_ delta: UInt64) -> Bool {
            guard let advanced else { return false }
            location &+= delta &* context.codeAlignment
            stopped = !advanced(location, state)
            return true
        }
        func factored(_ value: UInt64) -> UInt64 { value &* context.dataAlignment }
        /// A CFA offset: as written (unsigned), or signed and factored by the data alignment (the `_sf` forms).
        func cfaOffset(signed: Bool) -> UInt64? {
            signed ? cursor.sleb().map { factored(UInt64(bitPattern: $0)) } : cursor.uleb()
        }
        func restore(_ register: UInt64) -> Bool {
            guard let initial, valid(register) else { return false }
            state.set(register, initial.record(of: register, initial: Record(register: context.initialValue)))
            return true
        }
        func block() -> (pointer: UInt, length: UInt64)? {
            guard let length = cursor.uleb(), length <= UInt64(instructions.count - cursor.position) else { return nil }
            let pointer = base &+ UInt(cursor.position)
            cursor.position += Int(length)
            return (pointer, length)
        }
        while !stopped, cursor.position < instructions.count {
            guard let opcode = cursor.byte() else { return false }
            let low = UInt64(opcode & 0x3F)
            switch opcode >> 6 {
            case 1:
                guard advance(low) else { return false }
                continue
            case 2:
                guard valid(low), let n = cursor.uleb() else { return false }
                state.set(low, Record(isOffset: true, register: context.cfaColumn, offsetOrLength: factored(n)))
                continue
            case 3:
                guard restore(low) else { return false }
                continue
            default:
                break
            }
            switch opcode {
            case 0x00, 0x2D, 0x2E: // nop, GNU_window_save, GNU_args_size
                if opcode == 0x2E, cursor.uleb() == nil { return false }
            case 0x02, 0x03, 0x04:
                guard let delta = cursor.unsigned(1 << Int(opcode - 0x02)), advance(delta) else { return false }
            case 0x05: // offset_extended
                guard let register = cursor.uleb(), valid(register), let n = cursor.uleb() else { return false }
                state.set(register, Record(isOffset: true, register: context.cfaColumn, offsetOrLength: factored(n)))
            case 0x06: // restore_extended
                guard let register = cursor.uleb(), restore(register) else { return false }
            case 0x07, 0x08: // undefined, same_value
                guard let register = cursor.uleb(), valid(register) else { return false }
                let value = opcode == 0x07 ? context.undefinedValue : context.sameValue
                state.set(register, Record(register: value))
            case 0x09: // register
                guard let register = cursor.uleb(), valid(register), let other = cursor.uleb(), valid(other) else {
                    return false
                }
                state.set(register, Record(register: other))
            case 0x0A:
                stack.append(state)
            case 0x0B:
                guard let saved = stack.popLast() else { return false }
                state = saved
            case 0x0C, 0x12: // def_cfa, def_cfa_sf
                guard let register = cursor.uleb(), valid(register), let offset = cfaOffset(signed: opcode == 0x12)
                else { return false }
                state.cfa = Record(isOffset: true, register: register, offsetOrLength: offset)
            case 0x0D: // def_cfa_register
                guard let register = cursor.uleb(), valid(register) else { return false }
                state.cfa.register = register
            case 0x0E, 0x13: // def_cfa_offset, def_cfa_offset_sf
                guard let offset = cfaOffset(signed: opcode == 0x13) else { return false }
                state.cfa.isOffset = true
                state.cfa.valueType = 0
                state.cfa.offsetOrLength = offset
            case 0x0F: // def_cfa_expression
                guard let (pointer, length) = block() else { return false }
                state.cfa.isOffset = false
                state.cfa.valueType = 2
                state.cfa.offsetOrLength = length
                state.cfa.block = pointer
            case 0x10, 0x16: // expression, val_expression
                guard let register = cursor.uleb(), valid(register), let (pointer, length) = block() else {
                    return false
                }
                var record = state.record(of: register, initial: Record(register: context.initialValue))
                record.isOffset = false
                record.valueType = opcode == 0x10 ? 2 : 3
                record.offsetOrLength = length
                record.block = pointer
                state.set(register, record)
            case 0x11, 0x14, 0x15: // offset_extended_sf, val_offset, val_offset_sf
                guard let register = cursor.uleb(), valid(register) else { return false }
                let offset: UInt64
                if opcode == 0x14 {
                    guard let n = cursor.uleb() else { return false }
                    offset = factored(n)
                } else {
                    guard let n = cursor.sleb() else { return false }
                    offset = factored(UInt64(bitPattern: n))
                }
                state.set(
                    register,
                    Record(
                        isOffset: true, valueType: opcode == 0x11 ? 0 : 1, register: context.cfaColumn,
                        offsetOrLength: offset))
            default:
                return false
            }
        }
        return true
    }
}
