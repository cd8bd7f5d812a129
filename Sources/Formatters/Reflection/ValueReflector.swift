#if canImport(FoundationEssentials)
    import FoundationEssentials // not all of Foundation: its ICU data and start-up cost stay out of the CLI
#else
    import Foundation
#endif

/// Turns live Swift values into ``ValueNode`` trees, as lldb's `po` sees them: the registry first, then
/// `CustomDebugStringConvertible` / `CustomStringConvertible` as the summary, then `Mirror` for the
/// children (superclass fields included). Dictionaries and sets come out sorted; class instances seen
/// before become references, so cycles end.
public struct ValueReflector {
    /// The formatters searched before a value's own descriptions.
    public var registry: FormatterRegistry
    /// How deep and how wide reflection goes.
    public var limits: RenderLimits

    /// A reflector with the standard formatters and limits, unless given others.
    public init(registry: FormatterRegistry = .standard, limits: RenderLimits = RenderLimits()) {
        self.registry = registry
        self.limits = limits
    }

    /// The tree of `value`.
    public func reflect(_ value: Any) -> ValueNode {
        var state = State()
        return node(for: value, label: nil, depth: 0, state: &state)
    }

    private struct State {
        var identities: [ObjectIdentifier: Int] = [:]
        var nodes = 0
    }

    private func node(for value: Any, label: String?, depth: Int, state: inout State) -> ValueNode {
        state.nodes += 1
        let type = type(of: value)
        let typeName = _typeName(type, qualified: true)
        let metatype = ObjectIdentifier(type)
        let mirror = Mirror(reflecting: value)

        if let summary = BuiltinFormatters.liveSummaries[metatype]?(value) {
            // A date's value is the number `JSONEncoder` writes for it; its summary is what people read.
            let leafValue = (value as? Date).map { "\($0.timeIntervalSinceReferenceDate)" } ?? summary
            var leaf = ValueNode(kind: .scalar, typeName: typeName, label: label, value: leafValue, summary: summary)
            if let entry = registry.entry(typeName: typeName, metatype: metatype) { leaf = entry.apply(to: leaf) }
            return leaf
        }

        var node = ValueNode(kind: .scalar, typeName: typeName, label: label)
        switch mirror.displayStyle {
        case .optional?:
            guard let wrapped = mirror.children.first else {
                return ValueNode(kind: .null, typeName: typeName, label: label)
            }
            return self.node(for: wrapped.value, label: label, depth: depth, state: &state)
        case .class?:
            node.kind = .class
            let object = value as AnyObject
            let identifier = ObjectIdentifier(object)
            if let seen = state.identities[identifier] {
                return ValueNode(kind: .reference, typeName: typeName, label: label, reference: seen)
            }
            state.identities[identifier] = state.identities.count + 1
            node.identity = state.identities[identifier]
        case .struct?: node.kind = .structure
        case .enum?: node.kind = .enumeration
        case .tuple?: node.kind = .tuple
        case .collection?: node.kind = .collection
        case .dictionary?: node.kind = .dictionary
        case .set?: node.kind = .set
        default:
            if let string = value as? String {
                node.kind = .string
                node.value = truncated(string)
            } else if let substring = value as? Substring {
                node.kind = .string
                node.value = truncated(String(substring))
            } else if let character = value as? Character {
                node.kind = .string
                node.value = String(character)
            } else {
                node.value = String(describing: value)
            }
            return formatted(node, metatype: metatype)
        }

        if node.kind == .enumeration {
            // The case name: the label of its payload, or the description of a case without one.
            if let payload = mirror.children.first, let caseName = payload.label {
                node.value = caseName
                node.children = payloadChildren(payload.value, depth: depth, state: &state)
            } else {
                node.value = String(describing: value)
            }
            return formatted(node, metatype: metatype, described: value)
        }

        guard depth < limits.maxDepth else {
            node.omitted = Int(mirror.children.count)
            return formatted(node, metatype: metatype, described: value)
        }
        var children: [ValueNode] = []
        if node.kind == .class {
            // Superclass fields first, as dump prints them.
            var chain: [Mirror] = []
            var current = mirror.superclassMirror
            while let superclass = current { chain.insert(superclass, at: 0); current = superclass.superclassMirror }
            for superclass in chain {
                for child in superclass.children {
                    children.append(self.node(for: child.value, label: child.label, depth: depth + 1, state: &state))
                }
            }
        }
        for (index, child) in mirror.children.enumerated() {
            switch node.kind {
            case .collection, .set:
                children.append(self.node(for: child.value, label: nil, depth: depth + 1, state: &state))
            case .dictionary:
                // Each child is a (key, value) pair; the key's text labels the value.
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { continue }
                var entry = self.node(for: pair[1].value, label: nil, depth: depth + 1, state: &state)
                let key = self.node(for: pair[0].value, label: nil, depth: depth + 1, state: &state)
                entry.label = key.kind == .string ? key.value : LineRenderer().render(key)
                children.append(entry)
            case .tuple:
                children.append(
                    self.node(
                        for: child.value, label: child.label.flatMap { $0.hasPrefix(".") ? nil : $0 } ?? ".\(index)",
                        depth: depth + 1, state: &state))
            default:
                children.append(self.node(for: child.value, label: child.label, depth: depth + 1, state: &state))
            }
        }
        // Unordered collections are sorted, so the output is the same on every run.
        if node.kind == .dictionary { children.sort { ($0.label ?? "") < ($1.label ?? "") } }
        if node.kind == .set { children.sort { LineRenderer().render($0) < LineRenderer().render($1) } }
        if children.count > limits.maxItems, [.collection, .set, .dictionary].contains(node.kind) {
            node.omitted = children.count - limits.maxItems
            children.removeLast(node.omitted)
        }
        node.children = children
        return formatted(node, metatype: metatype, described: value)
    }

    private func payloadChildren(_ payload: Any, depth: Int, state: inout State) -> [ValueNode] {
        let mirror = Mirror(reflecting: payload)
        // Several associated values reflect as a tuple; one as the value itself.
        if mirror.displayStyle == .tuple {
            return mirror.children.enumerated().map { index, child in
                node(
                    for: child.value, label: child.label.flatMap { $0.hasPrefix(".") ? nil : $0 } ?? ".\(index)",
                    depth: depth + 1, state: &state)
            }
        }
        return [node(for: payload, label: nil, depth: depth + 1, state: &state)]
    }

    /// Applies the registry; without an entry, a type's own description becomes the summary, as `po` shows it
    /// (the standard library's own descriptions of collections and numbers are not summaries).
    private func formatted(_ node: ValueNode, metatype: ObjectIdentifier, described value: Any? = nil) -> ValueNode {
        if let entry = registry.entry(typeName: node.typeName, metatype: metatype) { return entry.apply(to: node) }
        guard let value, !(node.typeName ?? "").hasPrefix("Swift.") else { return node }
        var node = node
        if let described = value as? CustomDebugStringConvertible {
            node.summary = described.debugDescription
        } else if let described = value as? CustomStringConvertible {
            node.summary = described.description
        }
        return node
    }

    private func truncated(_ string: String) -> String {
        guard string.count > limits.maxStringLength else { return string }
        return String(string.prefix(limits.maxStringLength)) + "…"
    }
}
