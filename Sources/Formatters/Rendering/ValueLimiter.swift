/// Cuts a parsed tree to the limits: deeper levels and extra collection items become counts of what was left out.
package struct ValueLimiter: Sendable {
    /// The limits applied.
    package var limits: RenderLimits

    /// A limiter applying `limits`.
    package init(limits: RenderLimits) {
        self.limits = limits
    }

    /// `node` cut to the limits: deeper levels and extra items replaced by counts of what was left out.
    package func limit(_ node: ValueNode) -> ValueNode {
        // No limit to apply: the tree as it is, not a copy of it (a dump's tree may hold a million values).
        if limits.maxDepth == .max, limits.maxItems == .max { return node }
        return limit(node, depth: 0)
    }

    /// `element`, an element of the value at the top, cut to the limits as ``limit(_:)`` cuts the top's elements.
    package func limitElement(_ element: ValueNode) -> ValueNode {
        if limits.maxDepth == .max, limits.maxItems == .max { return element }
        return limit(element, depth: 1)
    }

    private func limit(_ node: ValueNode, depth: Int) -> ValueNode {
        var node = node
        if depth >= limits.maxDepth, !node.children.isEmpty {
            node.omitted += node.children.count
            node.children = []
            return node
        }
        if [.collection, .set, .dictionary].contains(node.kind), node.children.count > limits.maxItems {
            node.omitted += node.children.count - limits.maxItems
            node.children.removeLast(node.children.count - limits.maxItems)
        }
        node.children = node.children.map { limit($0, depth: depth + 1) }
        return node
    }
}
