import DWARF
import ObjectFiles
import PostmortemCore
import Symbolication

/// The `STACK CFI` records of a symbol file as rows an unwinder reads, kept by offsets from the module's base: what
/// walks a minidump's stack through a module whose binary is not at hand, as minidump-stackwalk does with a store.
package struct SymbolFileCallFrames: CallFrameRows {
    /// The symbol file.
    package let index: SymbolFileIndex

    /// The rows of `index`'s records.
    package init(index: SymbolFileIndex) {
        self.index = index
    }

    /// The symbol file's path.
    package var path: String { index.path }

    /// The row at `address` (an offset from the module's base): the function's `STACK CFI INIT` rules with every
    /// `STACK CFI` change at or before it applied; `nil` when no function's record covers it, or its rules cannot be
    /// read (the walk then goes on by frame pointers or stops, saying why). A row with no `.ra` rule is the outermost
    /// frame's, as the DWARF it was written from said (an undefined return address is written as no rule).
    package func row(at address: FileAddress) throws(DWARFError) -> CallFrameRow? {
        index.callFrameRow(at: address.rawValue)
    }
}

extension SymbolFileIndex {
    /// Whether the file has `STACK CFI` records.
    package var hasCallFrames: Bool { !callFrameInits.isEmpty }

    /// The row at `offset`; see ``SymbolFileCallFrames/row(at:)``.
    func callFrameRow(at offset: UInt64) -> CallFrameRow? {
        let position = callFrameInits.end(ofKeysAtMost: offset, \.address) - 1
        guard position >= 0, case let function = callFrameInits[position], offset - function.address < function.size,
            // A record reaching past the last address ends before it (its range is kept as a half-open one).
            function.address.addingReportingOverflow(function.size).overflow == false || offset < .max,
            let architecture = BreakpadRegisterNames.architecture(ofModule: module.architecture),
            let returnAddress = BreakpadRegisterNames.returnAddressRegister(architecture)
        else { return nil }
        var rules: [String: [Substring]] = [:]
        BreakpadRuleText.read(string(function.rules), into: &rules)
        var start = function.address
        for delta in callFrameDeltas[callFrameDeltas.clamped(function.deltas)] where delta.address <= offset {
            BreakpadRuleText.read(string(delta.rules), into: &rules)
            start = max(start, delta.address)
        }
        guard let cfaTokens = rules[".cfa"], let cfa = BreakpadRuleText.canonicalFrameAddress(cfaTokens, architecture)
        else { return nil }
        var registerRules: [UInt16: CallFrameRow.Rule] = [:]
        for (name, tokens) in rules where name != ".cfa" {
            let register = name == ".ra" ? returnAddress : BreakpadRegisterNames.number(of: name, on: architecture)
            guard let register else { continue }
            guard let rule = BreakpadRuleText.rule(tokens, register: register, architecture) else {
                // Without its return address's rule the row is no use; another register's is left at its value.
                if register == returnAddress { return nil }
                continue
            }
            if name == ".ra" || registerRules[register] == nil { registerRules[register] = rule }
        }
        // No rule for the return address: the CFI said it is undefined (`_start`, a thread's entry), which ends the stack.
        if registerRules[returnAddress] == nil { registerRules[returnAddress] = .undefined }
        let end = function.address.addingReportingOverflow(function.size)
        return CallFrameRow(
            start: FileAddress(start),
            function: FileAddress(function.address)..<FileAddress(end.overflow ? .max : end.partialValue),
            canonicalFrameAddress: cfa, rules: registerRules, returnAddressRegister: returnAddress,
            isSignalFrame: false, section: "STACK CFI")
    }
}

/// Breakpad's rule text: `NAME: EXPRESSION` pairs, each expression in postfix (`$rsp 8 +`, `.cfa -16 + ^`), read into
/// the forms of DWARF call-frame rows: a register plus an offset, saved at the CFA plus an offset, and the rest as a
/// DWARF expression of the same operations.
enum BreakpadRuleText {
    /// Reads `text`'s rules into `rules`, each replacing an earlier rule of its register.
    static func read(_ text: String, into rules: inout [String: [Substring]]) {
        var name: String?
        var tokens: [Substring] = []
        for token in text.split(separator: " ") {
            if token.hasSuffix(":") {
                if let name { rules[name] = tokens }
                name = String(token.dropLast())
                tokens = []
            } else {
                tokens.append(token)
            }
        }
        if let name { rules[name] = tokens }
    }

    /// The CFA rule: a register plus a constant, else a DWARF expression; `nil` when it cannot be read.
    static func canonicalFrameAddress(_ tokens: [Substring], _ architecture: Architecture) -> CallFrameRow
        .CanonicalFrameAddress?
    {
        if let (register, offset) = registerPlusOffset(tokens, architecture) {
            return .register(register, offset: offset)
        }
        guard !tokens.contains(".cfa"), let bytes = expression(tokens, architecture) else { return nil }
        return .expression(bytes)
    }

    /// A register's rule; `register` is the register it is of (its own name means "unchanged").
    static func rule(_ tokens: [Substring], register: UInt16, _ architecture: Architecture) -> CallFrameRow.Rule? {
        if tokens == [".undef"] { return .undefined }
        if tokens.first == ".cfa" {
            let rest = Array(tokens.dropFirst())
            switch rest.count {
            case 0: return .isCFA(offset: 0)
            case 1 where rest[0] == "^": return .savedAt(cfaOffset: 0)
            case 2, 3:
                guard let offset = signedOffset(rest[0], rest[1]) else { break }
                if rest.count == 2 { return .isCFA(offset: offset) }
                if rest[2] == "^" { return .savedAt(cfaOffset: offset) }
            default:
                break
            }
            // The CFA is pushed before the expression runs: the rest computes from it.
            guard !rest.contains(".cfa") else { return nil }
            if rest.last == "^", let bytes = expression(rest.dropLast(), architecture) {
                return .savedAtExpression(bytes)
            }
            return expression(rest, architecture).map { .isExpression($0) }
        }
        if tokens.count == 1, let other = BreakpadRegisterNames.number(of: String(tokens[0]), on: architecture) {
            return other == register ? .sameValue : .inRegister(other)
        }
        guard !tokens.contains(".cfa") else { return nil }
        if tokens.last == "^", let bytes = expression(tokens.dropLast(), architecture) {
            return .savedAtExpression(bytes)
        }
        return expression(tokens, architecture).map { .isExpression($0) }
    }

    /// `REGISTER`, `REGISTER N +` or `REGISTER N -`.
    private static func registerPlusOffset(_ tokens: [Substring], _ architecture: Architecture) -> (UInt16, Int64)? {
        guard let first = tokens.first, let register = BreakpadRegisterNames.number(of: String(first), on: architecture)
        else { return nil }
        if tokens.count == 1 { return (register, 0) }
        guard tokens.count == 3, let offset = signedOffset(tokens[1], tokens[2]) else { return nil }
        return (register, offset)
    }

    /// `N +` as `N`, `N -` as `-N`.
    private static func signedOffset(_ number: Substring, _ operation: Substring) -> Int64? {
        guard let value = Int64(number) else { return nil }
        switch operation {
        case "+": return value
        case "-": return value == .min ? nil : -value
        default: return nil
        }
    }

    /// The postfix `tokens` as DWARF expression operations: numbers pushed, registers read (`DW_OP_bregx`), `+ - * / %`
    /// as their DWARF operations, `^` a dereference and `@` an alignment (`a b @` is `a & ~(b - 1)`). `nil` when a token
    /// is none of these.
    private static func expression(_ tokens: some Sequence<Substring>, _ architecture: Architecture) -> [UInt8]? {
        var bytes = ByteWriter()
        for token in tokens {
            if let value = Int64(token) {
                if value >= 0 { bytes.u8(0x10); bytes.uleb(UInt64(value)) } else { bytes.u8(0x11); bytes.sleb(value) }
                continue
            }
            switch token {
            case "+": bytes.u8(0x22)
            case "-": bytes.u8(0x1c)
            case "*": bytes.u8(0x1e)
            case "/": bytes.u8(0x1b)
            case "%": bytes.u8(0x1d)
            case "^": bytes.u8(0x06)
            case "@": bytes.append([0x31, 0x1c, 0x20, 0x1a]) // lit1, minus, not, and
            default:
                guard let register = BreakpadRegisterNames.number(of: String(token), on: architecture) else {
                    return nil
                }
                bytes.u8(0x92)
                bytes.uleb(UInt64(register))
                bytes.u8(0x00)
            }
        }
        return bytes.count == 0 ? nil : bytes.bytes
    }
}
