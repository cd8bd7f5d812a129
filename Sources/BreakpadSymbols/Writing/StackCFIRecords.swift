import DWARF
import ObjectFiles
import PostmortemCore

/// Writes call-frame information as `STACK CFI INIT` and `STACK CFI` records: per function, its first row in full and
/// then each later row's changes, in Breakpad's postfix notation (`.cfa: $rsp 16 + .ra: .cfa -8 + ^`).
///
/// Rules Breakpad cannot state (DWARF expressions) are left out, and a row left with nothing to say is not written, as
/// Mozilla's dump_syms does.
struct StackCFIRecords {
    let architecture: Architecture
    /// Subtracted from every address (the first loadable segment's).
    let base: UInt64

    /// Appends the records of one function to `text`, one line each; a function below the image's base is not the
    /// image's (a zeroed FDE) and is left out.
    func write(_ description: CallFrameListing.Description, into text: inout RecordText) {
        guard description.range.lowerBound.rawValue >= base else { return }
        let start = description.range.lowerBound.rawValue
        let length = description.range.upperBound.rawValue - start
        // The last rule written of each register (few per function: searched in place).
        var lastRules: [CallFrameListing.RegisterRule] = []
        var lastCFA: CallFrameListing.Rule?
        // Registers in the order the instructions first give them rules (as a CFI interpreter keeps them); any other
        // after them, by number.
        var registerOrder = description.registerOrder
        if description.rules.contains(where: { !registerOrder.contains($0.register) }) {
            registerOrder += Set(description.rules.map(\.register)).subtracting(registerOrder).sorted()
        }
        let returnAddressRegister = description.returnAddressRegister
        for row in description.rows {
            let lineStart = text.count
            let isFirst = row.start.rawValue == start
            if isFirst {
                text.append("STACK CFI INIT " as StaticString)
                text.appendHex(start - base)
                text.appendByte(UInt8(ascii: " "))
                text.appendHex(length)
            } else {
                text.append("STACK CFI " as StaticString)
                text.appendHex(row.start.rawValue - base)
            }
            var written = false
            if lastCFA != row.canonicalFrameAddress {
                lastCFA = row.canonicalFrameAddress
                if case .savedAt(let register, let offset) = row.canonicalFrameAddress,
                    let name = BreakpadRegisterNames.name(register, on: architecture)
                {
                    text.append(" .cfa: " as StaticString)
                    text.append(name)
                    text.appendByte(UInt8(ascii: " "))
                    text.appendSigned(offset)
                    text.append(" +" as StaticString)
                    written = true
                }
            }
            var returnAddressWritten = false
            let rowRules = description.rules[row.rules]
            for register in registerOrder {
                guard let rule = rowRules.first(where: { $0.register == register })?.rule else { continue }
                if let known = lastRules.firstIndex(where: { $0.register == register }) {
                    if lastRules[known].rule == rule { continue }
                    lastRules[known].rule = rule
                } else {
                    lastRules.append(CallFrameListing.RegisterRule(register: register, rule: rule))
                }
                if register == returnAddressRegister { returnAddressWritten = true }
                if appendRule(register, rule, returnAddressRegister: returnAddressRegister, to: &text) {
                    written = true
                }
            }
            if isFirst, !returnAddressWritten, BreakpadRegisterNames.returnsThroughRegister(architecture),
                let name = BreakpadRegisterNames.name(returnAddressRegister, on: architecture)
            {
                text.append(" .ra: " as StaticString)
                text.append(name)
            }
            if written {
                text.appendByte(UInt8(ascii: "\n"))
            } else {
                text.removeLast(text.count - lineStart)
            }
        }
    }

    /// Appends ` NAME: RULE`; false (nothing appended) for a rule Breakpad cannot state.
    private func appendRule(
        _ register: UInt16, _ rule: CallFrameListing.Rule, returnAddressRegister: UInt16, to text: inout RecordText
    ) -> Bool {
        guard
            let name = register == returnAddressRegister
                ? ".ra" : BreakpadRegisterNames.name(register, on: architecture)
        else { return false }
        switch rule {
        case .sameValue:
            guard let value = BreakpadRegisterNames.name(register, on: architecture) else { return false }
            text.appendByte(UInt8(ascii: " ")); text.append(name); text.append(": " as StaticString); text.append(value)
        case .inRegister(let other):
            guard let value = BreakpadRegisterNames.name(other, on: architecture) else { return false }
            text.appendByte(UInt8(ascii: " ")); text.append(name); text.append(": " as StaticString); text.append(value)
        case .savedAt(_, let offset):
            text.appendByte(UInt8(ascii: " ")); text.append(name); text.append(": .cfa " as StaticString);
            text.appendSigned(offset); text.append(" + ^" as StaticString)
        case .isCFA(let offset):
            text.appendByte(UInt8(ascii: " ")); text.append(name); text.append(": .cfa " as StaticString);
            text.appendSigned(offset); text.append(" +" as StaticString)
        case .expression:
            return false
        }
        return true
    }
}
