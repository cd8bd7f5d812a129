/// One line, like Xcode's summary column and Swift literals: `Person(name: "Ada", tags: ["x"], age: 36)`.
package struct LineRenderer: Sendable {
    /// A renderer (it keeps no state).
    package init() {}

    /// A class instance that a back-reference (`↩︎ #0`) points at is named with its number: `Node #0(…)`.
    package func render(_ node: ValueNode) -> String {
        let referenced = node.referencedIdentities
        return render(node, referenced: referenced)
    }

    private func render(_ node: ValueNode, referenced: Set<Int>) -> String {
        let render = { (child: ValueNode) in self.render(child, referenced: referenced) }
        let items = { (node: ValueNode) in node.children.map(render) + self.more(node) }
        let labelled = { (node: ValueNode) in
            node.children.map { child in
                guard let label = child.label, !label.hasPrefix(".") else { return render(child) }
                return label + ": " + render(child)
            } + self.more(node)
        }
        if let summary = node.summary, node.kind != .string { return summary }
        switch node.kind {
        case .string: return SwiftLiteral.quoted(node.value ?? "")
        case .scalar, .raw: return node.value ?? "?"
        case .null: return "nil"
        case .optional: return node.children.first.map(render) ?? "nil"
        case .reference: return "↩︎ #\(node.reference ?? 0)"
        case .truncated: return "…"
        case .collection, .set: return "[" + items(node).joined(separator: ", ") + "]"
        case .dictionary:
            if node.children.isEmpty && node.omitted == 0 { return "[:]" }
            let pairs = node.children.map { SwiftLiteral.quoted($0.label ?? "") + ": " + render($0) }
            return "[" + (pairs + more(node)).joined(separator: ", ") + "]"
        case .enumeration:
            let name = "." + (node.value ?? "?")
            guard !node.children.isEmpty else { return name }
            return name + "(" + labelled(node).joined(separator: ", ") + ")"
        case .tuple: return "(" + labelled(node).joined(separator: ", ") + ")"
        case .structure, .class:
            let number = node.identity.flatMap { referenced.contains($0) ? " #\($0)" : nil } ?? ""
            let type = SwiftLiteral.shortTypeName(node.typeName) + number
            if node.children.isEmpty && node.omitted > 0 { return type + "(…)" }
            return type + "(" + labelled(node).joined(separator: ", ") + ")"
        }
    }

    private func more(_ node: ValueNode) -> [String] { node.omitted > 0 ? ["… (+\(node.omitted) more)"] : [] }
}
