/// Writes JSON text with keys in a fixed order, so output is stable for golden files and scripts. Shared by the
/// crash-log, symbolication, grouping and value renderers.
package enum JSONText {
    /// A JSON string literal for `value`, with the escapes RFC 8259 requires.
    package static func quote(_ value: String) -> String {
        // Most strings need no escape: copy them whole.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + value + "\""
        }
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `value` as a JSON string, or `null`.
    package static func string(_ value: String?) -> String { value.map(quote) ?? "null" }
    /// `value` as a JSON number, or `null`.
    package static func number<T: BinaryInteger>(_ value: T?) -> String { value.map { "\($0)" } ?? "null" }

    /// `{"key": value, …}` from already-encoded values, in the order given.
    package static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { quote($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    /// `[element, …]` from already-encoded elements, in the order given.
    package static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ", ") + "]"
    }
}
