import ObjectFiles

/// How addresses typed by a user are read.
enum AddressInput {
    /// atos reads every address as hex, with or without `0x`.
    case atos
    /// gdb reads `0x…` as hex and plain digits as decimal, and accepts a leading `*`.
    case gdb

    /// The number `text` names, or `nil` when it is not an address.
    func parse(_ text: String) -> UInt64? {
        var digits = Substring(text)
        if self == .gdb, digits.hasPrefix("*") { digits = digits.dropFirst() }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { return UInt64(digits.dropFirst(2), radix: 16) }
        switch self {
        case .atos: return UInt64(digits, radix: 16)
        case .gdb: return UInt64(digits, radix: 10)
        }
    }
}

/// Where addresses come from: the command line, or standard input one or more per line.
enum AddressSource {
    /// Calls `body` with each address token, from `arguments` or, when there are none, from stdin
    /// (flushing after each line so the command can serve a pipe interactively).
    static func forEach(in arguments: [String], _ body: (String) -> Void) {
        if !arguments.isEmpty {
            arguments.forEach(body)
            return
        }
        while let line = readLine() {
            for token in line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }) { body(String(token)) }
            Output.flush()
        }
    }
}
