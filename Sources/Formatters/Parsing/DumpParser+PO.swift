/// lldb's `po` of a Swift value, as `Swift._DebuggerSupport.stringForPrintObject` writes it:
/// ```
/// ▿ Person
///   - name : "Ada"
///   ▿ tags : 2 elements
///     - 0 : "math"
///   ▿ email : Optional<String>
///     - some : "ada@example.com"
/// ```
/// Ambiguities, resolved as a reader would: a list whose every element is a `key :`/`value :` pair is a dictionary
/// (`po` prints dictionaries that way), so an empty dictionary reads as an empty list; a value whose only child is a
/// group of named fields (`▿ circle : 1 element` / `- radius : 2.0`) is an enum case with its payload, as `po`
/// prints `Shape.circle(radius: 2.0)`; a root without children (`nil`, `Fixture.Empty()`, `<Team: 0x…>`) is read as
/// `print` output.
extension DumpParser {
    /// True when the lines use `po`'s ` : ` separator (`- name : "Ada"`, `▿ 0 : Person`).
    static func looksLikePO(_ text: String) -> Bool {
        text.leadingLines(50).contains { line in
            let body = line.drop { $0 == " " }
            guard let marker = body.first, "▿-▹".contains(marker) else { return false }
            let (label, _) = split(String(body.dropFirst(2)), separator: " : ")
            return label != nil
        }
    }

    static func poNode(_ lines: [Line], _ index: inout Int) -> ValueNode {
        let line = lines[index]
        index += 1
        if line.isTruncation { return ValueNode(kind: .truncated) }
        var children: [ValueNode] = []
        while index < lines.count, lines[index].depth > line.depth {
            children.append(poNode(lines, &index))
        }
        var summary = line.summary
        var isCycle = false
        if summary.hasSuffix(" { ... }") {
            isCycle = true
            summary.removeLast(" { ... }".count)
        }
        var result: ValueNode
        if isCycle {
            result = ValueNode(kind: .reference, typeName: summary, value: summary)
        } else if summary == "0 key/value pairs" || summary == "0 members" {
            result = ValueNode(kind: summary == "0 members" ? .set : .dictionary)
        } else if let count = elementCount(summary) {
            result = group(children, count: count)
        } else if summary.hasPrefix("Optional<") {
            result = children.first { $0.label == "some" } ?? ValueNode(kind: .null)
        } else if children.isEmpty && !line.hasChildren {
            result = SwiftPrintParser.parse(summary)
            if result.kind == .optional, let inner = result.children.first { result = inner }
        } else if !summary.isEmpty, !isPOTypeName(summary) {
            // A value with its own description (a URL): the description is the value, the children its storage.
            result = ValueNode(kind: .scalar, value: summary)
        } else if children.count == 1, children[0].kind == .tuple, let name = children[0].label,
            name.first?.isLowercase == true
        {
            result = ValueNode(kind: .enumeration, typeName: summary, value: name, children: children[0].children)
        } else {
            result = ValueNode(kind: .structure, typeName: summary, children: children)
        }
        result.label = line.label
        return result
    }

    /// `Person`, `Fixture.Person`, `Optional<Int>`, `Dictionary<String, Int>`: how `po` names a value's type (short
    /// names, spaces only between generic arguments).
    static func isPOTypeName(_ text: String) -> Bool {
        let path = text.prefix { $0 != "<" }
        guard path.count == text.count || text.hasSuffix(">"), let first = path.first, first.isLetter || first == "_"
        else { return false }
        return path.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
    }

    /// `3 elements` / `1 element`: the count, when the summary is one.
    private static func elementCount(_ summary: String) -> Int? {
        guard let space = summary.firstIndex(of: " "),
            summary[space...] == " elements" || summary[space...] == " element"
        else { return nil }
        return Int(summary[..<space])
    }

    /// The children of an `N elements` line: a list (labels `0`, `1`, …), a dictionary (a list of `key`/`value`
    /// pairs) or a tuple (named or `.0` labels).
    private static func group(_ children: [ValueNode], count: Int) -> ValueNode {
        let isList = children.enumerated().allSatisfy { index, child in
            child.label == String(index) || child.kind == .truncated
        }
        guard isList else { return ValueNode(kind: .tuple, children: children) }
        let pairs = children.compactMap { pair -> ValueNode? in
            if pair.kind == .truncated { return pair }
            guard pair.children.count == 2, let key = pair.child("key"), var value = pair.child("value") else {
                return nil
            }
            value.label = key.kind == .string ? key.value : LineRenderer().render(key)
            return value
        }
        if !children.isEmpty, pairs.count == children.count {
            return ValueNode(kind: .dictionary, children: pairs)
        }
        return ValueNode(
            kind: .collection,
            children: children.map { child in
                var child = child; child.label = nil; return child
            })
    }
}
