import PostmortemCore

/// Plain JSON for scripts: structures and classes become objects of their fields, collections arrays,
/// dictionaries objects, optionals their value or `null`, enums their case name (or `{"case": payload}`).
/// Numbers stay numbers, as printed. Keys keep the order the value has (sorted for dictionaries).
package struct PlainJSONRenderer: Sendable {
    /// A renderer (it keeps no state).
    package init() {}

    /// A class instance that a back-reference points at carries `"$id"`; the reference is `{"$ref": id}`. Items a
    /// limit left out are counted where they were: `{"$omitted": n}` ends an array, `"$omitted": n` an object.
    package func render(_ node: ValueNode) -> String {
        let referenced = node.referencedIdentities
        return render(node, referenced: referenced)
    }

    private func render(_ node: ValueNode, referenced: Set<Int>) -> String {
        let render = { (child: ValueNode) in self.render(child, referenced: referenced) }
        let omitted = node.omitted > 0 ? ["{\"$omitted\": \(node.omitted)}"] : []
        let omittedKey = node.omitted > 0 ? ["\"$omitted\": \(node.omitted)"] : []
        switch node.kind {
        case .null: return "null"
        case .optional: return node.children.first.map(render) ?? "null"
        case .string, .raw: return JSONText.quote(node.value ?? "")
        case .scalar:
            let text = node.value ?? ""
            if text == "true" || text == "false" || Self.isJSONNumber(text) { return text }
            return JSONText.quote(node.summary ?? text)
        case .reference: return "{\"$ref\": \(node.reference ?? 0)}"
        case .truncated: return "null"
        case .collection, .set: return "[" + (node.children.map(render) + omitted).joined(separator: ", ") + "]"
        case .dictionary, .structure, .class:
            let identity =
                node.kind == .class && node.identity.map(referenced.contains) == true
                ? ["\"$id\": \(node.identity!)"] : []
            let fields = node.children.map { JSONText.quote($0.label ?? "") + ": " + render($0) }
            return "{" + (identity + fields + omittedKey).joined(separator: ", ") + "}"
        case .tuple:
            if node.children.allSatisfy({ $0.label?.hasPrefix(".") ?? true }) {
                return "[" + (node.children.map(render) + omitted).joined(separator: ", ") + "]"
            }
            return "{"
                + (node.children.map { JSONText.quote($0.label ?? "") + ": " + render($0) } + omittedKey).joined(
                    separator: ", ") + "}"
        case .enumeration:
            let name = node.value ?? ""
            guard !node.children.isEmpty else { return JSONText.quote(name) }
            let payload: String
            if node.children.count == 1, node.children[0].label == nil || node.children[0].label!.hasPrefix(".") {
                payload = render(node.children[0])
            } else {
                payload = render(ValueNode(kind: .tuple, children: node.children))
            }
            return "{" + JSONText.quote(name) + ": " + payload + "}"
        }
    }

    /// A JSON number as RFC 8259 spells it (Swift prints `inf`, `nan`, `1e+20` forms; the first two are not numbers).
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, TextCursor.isDigit(first) else { return false }
        if first == UInt8(ascii: "0"), let second = bytes.dropFirst().first, TextCursor.isDigit(second) { return false }
        var seenDot = false, seenExponent = false, previous = first
        for byte in bytes.dropFirst() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): break
            case UInt8(ascii: ".") where !seenDot && !seenExponent && TextCursor.isDigit(previous): seenDot = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !seenExponent, TextCursor.isDigit(previous) else { return false }; seenExponent = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return false }
            default: return false
            }
            previous = byte
        }
        return TextCursor.isDigit(previous)
    }
}
