/// How a value is printed.
public enum DescriptionStyle: String, Hashable, Sendable, CaseIterable {
    /// An indented tree, like `dump` and lldb.
    case tree
    /// One line, like Xcode's summary column.
    case line
    /// Plain JSON for scripts.
    case json
}

/// Describes live Swift values like lldb's `po`, through a formatter registry.
///
/// ```swift
/// var registry = FormatterRegistry.standard
/// registry.add(try FormatterEntry(.type(Person.self), summaryString: "${var.name} (${var.age})"))
/// print(ValueDescriber(registry: registry).describe(people, style: .tree))
/// ```
public struct ValueDescriber {
    /// The formatters that give values their summaries and children, searched as lldb searches its categories.
    public var registry: FormatterRegistry
    /// How much of a value is shown.
    public var limits: RenderLimits

    /// A describer with the standard formatters and limits, unless given others.
    public init(registry: FormatterRegistry = .standard, limits: RenderLimits = RenderLimits()) {
        self.registry = registry
        self.limits = limits
    }

    /// The tree of `value`, with formatters applied.
    public func node(for value: Any) -> ValueNode {
        ValueReflector(registry: registry, limits: limits).reflect(value)
    }

    /// `value` printed in `style`.
    public func describe(_ value: Any, style: DescriptionStyle = .tree) -> String {
        style.render(node(for: value))
    }
}

extension DescriptionStyle {
    /// `node` printed in this style, by its renderer.
    package func render(_ node: ValueNode) -> String {
        switch self {
        case .tree: TreeRenderer().render(node)
        case .line: LineRenderer().render(node)
        case .json: PlainJSONRenderer().render(node)
        }
    }
}
