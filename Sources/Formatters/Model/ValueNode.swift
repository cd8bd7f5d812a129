/// One value in a tree that a renderer prints: a reflected live value, or (later) a value parsed from a dump.
public struct ValueNode: Hashable, Sendable {
    /// What sort of value a node is, which decides how renderers print it.
    public enum Kind: String, Hashable, Sendable {
        case structure, `class`, enumeration, tuple, optional, collection, dictionary, set
        /// A number, boolean or other value printed as it is.
        case scalar
        case string
        /// `nil`.
        case null
        /// A class instance already printed above: see ``ValueNode/reference``.
        case reference
        /// Children cut off by a limit.
        case truncated
        /// Text that could not be understood, kept as it is.
        case raw
    }

    /// What sort of value this is.
    public var kind: Kind
    /// The type as Swift names it (`Fixture.Person`, `Array<Int>`).
    public var typeName: String?
    /// The label in the parent: a property name, `[3]`, a dictionary key's text.
    public var label: String?
    /// The text of a leaf (a string's contents, unescaped; a number as printed).
    public var value: String?
    /// A one-line summary from a formatter or a description.
    public var summary: String?
    /// The values inside this one: fields, elements, a dictionary's entries, an enum's payload.
    public var children: [ValueNode]
    /// For class instances: a number that identifies the instance within one rendering.
    public var identity: Int?
    /// For ``Kind/reference``: the identity of the instance printed earlier.
    public var reference: Int?
    /// How many children a limit left out.
    public var omitted: Int

    /// A node of `kind`; everything else is optional.
    public init(
        kind: Kind, typeName: String? = nil, label: String? = nil, value: String? = nil, summary: String? = nil,
        children: [ValueNode] = [], identity: Int? = nil, reference: Int? = nil, omitted: Int = 0
    ) {
        self.kind = kind
        self.typeName = typeName
        self.label = label
        self.value = value
        self.summary = summary
        self.children = children
        self.identity = identity
        self.reference = reference
        self.omitted = omitted
    }

    /// The child labelled `label`.
    public func child(_ label: String) -> ValueNode? { children.first { $0.label == label } }

    /// The type's name without its module and generic arguments (`Person` for `Fixture.Person<Int>`).
    public var baseTypeName: String? {
        guard let typeName else { return nil }
        let withoutGenerics = typeName.prefix { $0 != "<" }
        return withoutGenerics.split(separator: ".").last.map(String.init)
    }
}

extension ValueNode {
    /// The identities that ``Kind/reference`` nodes below (and including) this one point at: the instances a
    /// renderer names with their number, so that a back-reference can be followed.
    public var referencedIdentities: Set<Int> {
        var referenced: Set<Int> = []
        var pending = [self]
        while let node = pending.popLast() {
            if node.kind == .reference, let target = node.reference { referenced.insert(target) }
            pending += node.children
        }
        return referenced
    }
}

extension ValueNode {
    /// Whether this is a value with parts (a structure, a collection, an enum case…), not a leaf: a string or a
    /// number alone is what any line of text reads as.
    var hasParts: Bool {
        switch kind {
        case .structure, .class, .tuple, .optional, .collection, .dictionary, .set: true
        // A case alone (`Fixture.Color.red`) is what a word reads as.
        case .enumeration: !children.isEmpty || typeName?.isEmpty == false
        case .scalar, .string, .null, .reference, .truncated, .raw: false
        }
    }

    /// Whether this is a value alone on a line of its own that no line of words reads as: a quoted string, a number,
    /// `true`, `false`, `nil`. (A word reads as an enum case or a scalar: `starting` is text, not a value.)
    var isLeafValue: Bool {
        switch kind {
        case .string, .null: true
        case .scalar:
            value == "true" || value == "false" || value.map(PlainJSONRenderer.isJSONNumber) == true
        default: false
        }
    }

    /// Whether any value in this tree is text that could not be understood.
    var containsRaw: Bool {
        var pending = [self]
        while let node = pending.popLast() {
            if node.kind == .raw { return true }
            pending += node.children
        }
        return false
    }
}
