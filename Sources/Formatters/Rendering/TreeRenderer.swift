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
            let childPrefix: String
            if node.kind == .dictionary {
                childPrefix = SwiftLiteral.quoted(child.label ?? "") + ": "
            } else if let label = child.label, !label.hasPrefix("."), node.kind != .collection, node.kind != .set {
                childPrefix = label + ": "
            } else {
                childPrefix = ""
            }
            write(
                child, prefix: childPrefix, depth: depth + 1, trailing: last ? "" : ",", referenced: referenced,
                into: &lines)
        }
        if node.omitted > 0 { lines.append(pad + indentation + "… (+\(node.omitted) more)") }
        lines.append(pad + closing + trailing)
    }
}
