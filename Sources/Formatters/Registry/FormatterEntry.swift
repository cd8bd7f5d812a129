/// Which values a formatter applies to.
public enum TypeMatcher: Hashable, Sendable {
    /// Exactly this Swift type (live values only); the name lets the entry match dumps too.
    case type(ObjectIdentifier, name: String)
    /// A type name, qualified (`App.Person`) or not (`Person`).
    case name(String)
    /// Every specialisation of a generic type: `Array` matches `Array<Int>` and `Swift.Array<String>`.
    case genericBase(String)
    /// A regular expression over the qualified type name, as `type summary add -x`.
    case regex(String)

    /// A matcher for `T`, by metatype and by name.
    public static func type<T>(_ type: T.Type) -> TypeMatcher {
        .type(ObjectIdentifier(type), name: _typeName(type, qualified: true))
    }

    func matches(typeName: String?, metatype: ObjectIdentifier?) -> Bool {
        switch self {
        case .type(let identifier, let name):
            if let metatype { return metatype == identifier }
            return typeName.map { Self.sameName($0, name) } ?? false
        case .name(let name):
            return typeName.map { Self.sameName($0, name) } ?? false
        case .genericBase(let base):
            guard let typeName, let open = typeName.firstIndex(of: "<") else { return false }
            return Self.sameName(String(typeName[..<open]), base)
        case .regex(let pattern):
            // lldb searches: the pattern may match anywhere unless it anchors itself.
            guard let typeName, let regex = try? Regex(pattern) else { return false }
            return (try? regex.firstMatch(in: typeName)) != nil
        }
    }

    /// `App.Person` and `Person` name the same type: dumps often drop the module.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        lhs == rhs || lhs.hasSuffix("." + rhs) || rhs.hasSuffix("." + lhs)
    }
}

/// What a formatter does to the values it matches: a summary, and/or a new set of children.
public struct FormatterEntry: Sendable {
    /// How the summary is made: by code, or from an lldb summary string.
    public enum Summary: Sendable {
        case closure(@Sendable (ValueNode) -> String?)
        case template(SummaryTemplate)
    }

    /// What becomes of the value's children.
    public enum Children: Sendable {
        /// Keep only these children, in this order.
        case pick([String])
        /// Give children other labels.
        case rename([String: String])
        /// Leave these children out.
        case hide([String])
        /// Replace the children with computed ones (lldb's synthetic children).
        case synthetic(@Sendable (ValueNode) -> [ValueNode])
    }

    /// The types the entry applies to.
    public var matcher: TypeMatcher
    /// The one-line summary it gives, if any.
    public var summary: Summary?
    /// What it does to the children, if anything.
    public var children: Children?
    /// Show the summary only, never the children (Date, URL: their children are noise).
    public var isLeaf: Bool

    /// An entry for the types `matcher` matches.
    public init(_ matcher: TypeMatcher, summary: Summary? = nil, children: Children? = nil, isLeaf: Bool = false) {
        self.matcher = matcher
        self.summary = summary
        self.children = children
        self.isLeaf = isLeaf
    }

    /// A summary string entry, as `type summary add --summary-string`.
    public init(_ matcher: TypeMatcher, summaryString: String) throws(TemplateError) {
        self.init(matcher, summary: .template(try SummaryTemplate(summaryString)))
    }

    /// `node` with this entry applied.
    func apply(to node: ValueNode) -> ValueNode {
        var node = node
        switch children {
        case .pick(let labels)?:
            node.children = labels.compactMap { label in node.children.first { $0.label == label } }
        case .rename(let names)?:
            node.children = node.children.map { child in
                var child = child
                if let label = child.label, let name = names[label] { child.label = name }
                return child
            }
        case .hide(let labels)?: node.children.removeAll { $0.label.map(labels.contains) ?? false }
        case .synthetic(let make)?: node.children = make(node)
        case nil: break
        }
        switch summary {
        case .closure(let make)?: node.summary = make(node) ?? node.summary
        case .template(let template)?: node.summary = template.render(node)
        case nil: break
        }
        if isLeaf { node.children = [] }
        return node
    }
}
