/// One line, like Xcode's summary column and Swift literals: `Person(name: "Ada", tags: ["x"], age: 36)`.
public struct LineRenderer: Sendable {
    public init() {}

    public func render(_ node: ValueNode) -> String {
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
            let type = SwiftLiteral.shortTypeName(node.typeName)
            if node.children.isEmpty && node.omitted > 0 { return type + "(…)" }
            return type + "(" + labelled(node).joined(separator: ", ") + ")"
        }
    }

    private func items(_ node: ValueNode) -> [String] { node.children.map(render) + more(node) }

    private func labelled(_ node: ValueNode) -> [String] {
        node.children.map { child in
            guard let label = child.label, !label.hasPrefix(".") else { return render(child) }
            return label + ": " + render(child)
        } + more(node)
    }

    private func more(_ node: ValueNode) -> [String] { node.omitted > 0 ? ["… (+\(node.omitted) more)"] : [] }
}
