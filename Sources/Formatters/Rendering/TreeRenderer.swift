/// An indented tree, one value per line, like swift-custom-dump and lldb's expanded variables:
/// ```
/// Person(
///   name: "Ada",
///   tags: [
///     "x"
///   ]
/// )
/// ```
/// A value with a summary (a formatter's, or its own description) prints the summary only, as `po` does.
package struct TreeRenderer: Sendable {
    /// What each level of the tree is indented by.
    package var indentation: String

    /// A renderer indenting each level by `indentation` (two spaces unless told).
    package init(indentation: String = "  ") {
        self.indentation = indentation
    }

    /// A class instance that a back-reference (`↩︎ #0`) points at is named with its number: `Node #0(`.
    package func render(_ node: ValueNode) -> String {
        var lines: [String] = []
        let referenced = node.referencedIdentities
        write(node, prefix: "", depth: 0, trailing: "", referenced: referenced, into: &lines)
        return lines.joined(separator: "\n")
    }

    /// The lines of `element`, an element of a top value of `kind` (a collection or dictionary), as ``render(_:)``
    /// prints it inside that value, ending in `trailing`: for printing a value an element at a time.
    package func renderElement(_ element: ValueNode, in kind: ValueNode.Kind, trailing: String) -> String {
        var lines: [String] = []
        write(
            element, prefix: Self.prefix(of: element, in: kind), depth: 1, trailing: trailing,
            referenced: element.referencedIdentities, into: &lines)
        return lines.joined(separator: "\n")
    }

    /// What a child of a value of `kind` is printed after: a dictionary's key, a field's label.
    private static func prefix(of child: ValueNode, in kind: ValueNode.Kind) -> String {
        if kind == .dictionary { return SwiftLiteral.quoted(child.label ?? "") + ": " }
        if let label = child.label, !label.hasPrefix("."), kind != .collection, kind != .set { return label + ": " }
        return ""
    }

    private func write(
        _ node: ValueNode, prefix: String, depth: Int, trailing: String, referenced: Set<Int>,
        into lines: inout [String]
    ) {
        let pad = String(repeating: indentation, count: depth)
        let opening: String, closing: String
        switch node.kind {
        case .collection, .set, .dictionary: (opening, closing) = ("[", "]")
        case .structure, .class:
            let number = node.identity.flatMap { referenced.contains($0) ? " #\($0)" : nil } ?? ""
            (opening, closing) = (SwiftLiteral.shortTypeName(node.typeName) + number + "(", ")")
        case .tuple: (opening, closing) = ("(", ")")
        case .enumeration where !node.children.isEmpty: (opening, closing) = ("." + (node.value ?? "?") + "(", ")")
        default:
            lines.append(pad + prefix + LineRenderer().render(node) + trailing)
            return
        }
        if node.summary != nil || (node.children.isEmpty && node.omitted == 0)
            || (node.children.isEmpty && node.omitted > 0 && node.kind != .collection)
        {
            lines.append(pad + prefix + LineRenderer().render(node) + trailing)
            return
        }
        lines.append(pad + prefix + opening)
        for (index, child) in node.children.enumerated() {
            let last = index == node.children.count - 1 && node.omitted == 0
            write(
                child, prefix: Self.prefix(of: child, in: node.kind), depth: depth + 1, trailing: last ? "" : ",",
                referenced: referenced,
                into: &lines)
        }
        if node.omitted > 0 { lines.append(pad + indentation + "… (+\(node.omitted) more)") }
        lines.append(pad + closing + trailing)
    }
}
