import DWARF
import ObjectFiles

/// Writes call-frame information as `STACK CFI INIT` and `STACK CFI` records: per function, its first row in full and
/// then each later row's changes, in Breakpad's postfix notation (`.cfa: $rsp 16 + .ra: .cfa -8 + ^`).
///
/// Rules Breakpad cannot state (DWARF expressions) are left out, and a row left with nothing to say is not written, as
/// Mozilla's dump_syms does.
struct StackCFIRecords {
    let architecture: Architecture
    /// Subtracted from every address (the first loadable segment's).
    let base: UInt64

    /// The records of `listing`, one line each (without its newline).
    func lines(of listing: CallFrameListing) -> [String] {
        var lines: [String] = []
        for description in listing.descriptions {
            guard description.range.lowerBound.rawValue >= base else { continue }
            lines += records(of: description)
        }
        return lines
    }

    private func records(of description: CallFrameListing.Description) -> [String] {
        let start = description.range.lowerBound.rawValue
        let length = description.range.upperBound.rawValue - start
        var lastRule: [UInt16: CallFrameRow.Rule] = [:]
        var lastCFA: CallFrameRow.CanonicalFrameAddress?
        var registerOrder: [UInt16] = []
        var lines: [String] = []
        for row in description.rows {
            let isFirst = row.start.rawValue == start
            var line = isFirst ? "STACK CFI INIT \(hex(start - base)) \(hex(length))" : "STACK CFI \(hex(row.start.rawValue - base))"
            var written = false
            if lastCFA != row.canonicalFrameAddress {
                lastCFA = row.canonicalFrameAddress
                if let cfa = cfaRule(row.canonicalFrameAddress) {
                    line += " .cfa: " + cfa
                    written = true
                }
            }
            // Registers in the order the instructions first give them rules (as a CFI interpreter keeps them).
            let newRegisters = row.rules.keys.filter { !registerOrder.contains($0) }.sorted { lhs, rhs in
                let left = description.registerOrder.firstIndex(of: lhs) ?? Int.max, right = description.registerOrder.firstIndex(of: rhs) ?? Int.max
                return (left, lhs) < (right, rhs)
            }
            registerOrder += newRegisters
            var returnAddressWritten = false
            for register in registerOrder {
                guard let rule = row.rules[register], lastRule[register] != rule else { continue }
                lastRule[register] = rule
                if register == description.returnAddressRegister { returnAddressWritten = true }
                if let text = registerRule(register, rule, returnAddressRegister: description.returnAddressRegister) {
                    line += " " + text
                    written = true
                }
            }
            if isFirst, !returnAddressWritten, BreakpadRegisterNames.returnsThroughRegister(architecture),
               let name = BreakpadRegisterNames.name(description.returnAddressRegister, on: architecture) {
                line += " .ra: " + name
            }
            if written { lines.append(line) }
        }
        return lines
    }

    private func cfaRule(_ rule: CallFrameRow.CanonicalFrameAddress) -> String? {
        guard case .register(let register, let offset) = rule, let name = BreakpadRegisterNames.name(register, on: architecture) else { return nil }
        return "\(name) \(offset) +"
    }

    private func registerRule(_ register: UInt16, _ rule: CallFrameRow.Rule, returnAddressRegister: UInt16) -> String? {
        let value: String
        switch rule {
        case .sameValue:
            guard let name = BreakpadRegisterNames.name(register, on: architecture) else { return nil }
            value = name
        case .savedAt(let offset): value = ".cfa \(offset) + ^"
        case .isCFA(let offset): value = ".cfa \(offset) +"
        case .inRegister(let other):
            guard let name = BreakpadRegisterNames.name(other, on: architecture) else { return nil }
            value = name
        case .undefined, .savedAtExpression, .isExpression:
            return nil
        }
        let name = register == returnAddressRegister ? ".ra" : BreakpadRegisterNames.name(register, on: architecture)
        return name.map { "\($0): \(value)" }
    }

    private func hex(_ value: UInt64) -> String { String(value, radix: 16) }
}
