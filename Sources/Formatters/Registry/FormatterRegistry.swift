/// Formatters by category, as lldb keeps them: categories are searched in order, enabled ones only,
/// and within one the first entry that matches wins. A value type: copy it, change it, pass it on.
public struct FormatterRegistry: Sendable {
    /// A named group of entries, enabled or not, as lldb's `type category` keeps them.
    public struct Category: Sendable {
        /// The category's name (`user`, `swift`, `foundation`).
        public var name: String
        /// Whether lookups search it.
        public var isEnabled: Bool
        /// Its entries; the first that matches a value wins.
        public var entries: [FormatterEntry]

        /// A category of `entries`, enabled unless told otherwise.
        public init(name: String, isEnabled: Bool = true, entries: [FormatterEntry] = []) {
            self.name = name
            self.isEnabled = isEnabled
            self.entries = entries
        }
    }

    /// In priority order: the first category that has a matching entry decides.
    public private(set) var categories: [Category]

    /// A registry with only the user's (empty) `default` category.
    public init() {
        categories = [Category(name: "default")]
    }

    /// The standard registry: `default` (the user's), then `foundation` and `swift` built-ins.
    public static var standard: FormatterRegistry {
        var registry = FormatterRegistry()
        registry.categories += BuiltinFormatters.categories
        return registry
    }

    /// Adds `entry` to `category` (created, enabled, after the others, when new). Later entries of a
    /// category are tried first, so a newer definition replaces an older one.
    public mutating func add(_ entry: FormatterEntry, to category: String = "default") {
        if let index = categories.firstIndex(where: { $0.name == category }) {
            categories[index].entries.insert(entry, at: 0)
        } else {
            categories.append(Category(name: category, entries: [entry]))
        }
    }

    /// Makes lookups search `category` (`type category enable`).
    public mutating func enable(_ category: String) { setEnabled(category, true) }
    /// Makes lookups skip `category` (`type category disable`).
    public mutating func disable(_ category: String) { setEnabled(category, false) }

    /// Moves `category` to `position` in the search order (0 is searched first).
    public mutating func move(_ category: String, to position: Int) {
        guard let index = categories.firstIndex(where: { $0.name == category }) else { return }
        let moved = categories.remove(at: index)
        categories.insert(moved, at: max(0, min(position, categories.count)))
    }

    private mutating func setEnabled(_ category: String, _ enabled: Bool) {
        if let index = categories.firstIndex(where: { $0.name == category }) { categories[index].isEnabled = enabled }
    }

    /// The entry for a value of `typeName` (and `metatype`, for live values).
    /// - Complexity: O(entries).
    public func entry(typeName: String?, metatype: ObjectIdentifier? = nil) -> FormatterEntry? {
        // Every matcher names a type: a value of none (a JSON document's) matches nothing.
        if typeName == nil, metatype == nil { return nil }
        for category in categories where category.isEnabled {
            if let entry = category.entries.first(where: { $0.matcher.matches(typeName: typeName, metatype: metatype) })
            {
                return entry
            }
        }
        return nil
    }

    /// `node` with its formatter applied, children first (so summaries can use formatted children).
    public func apply(to node: ValueNode) -> ValueNode {
        var applier = Applier(registry: self)
        return applier.apply(to: node)
    }

    /// Applies a registry to value after value, looking each type name up once (a dump of a million values names a
    /// few types, and a lookup tries every entry, compiling a regular expression for some).
    package struct Applier {
        /// The registry applied.
        package let registry: FormatterRegistry
        /// The entry found for each type name met; forgotten when it grows past ``maximumNames``.
        private var entries: [String: FormatterEntry?] = [:]
        private static let maximumNames = 10_000

        /// An applier of `registry`.
        package init(registry: FormatterRegistry) { self.registry = registry }

        /// ``FormatterRegistry/apply(to:)`` of `node`.
        package mutating func apply(to node: ValueNode) -> ValueNode { applied(to: node) ?? node }

        /// `node` with the entries applied, or nil when none applies anywhere in it: a tree no entry touches (a JSON
        /// document, most of a dump) is not copied.
        private mutating func applied(to node: ValueNode) -> ValueNode? {
            var children: [ValueNode]?
            for index in node.children.indices {
                guard let changed = applied(to: node.children[index]) else { continue }
                if children == nil { children = node.children }
                children?[index] = changed
            }
            let entry = entry(typeName: node.typeName)
            guard children != nil || entry != nil else { return nil }
            var result = node
            if let children { result.children = children }
            return entry?.apply(to: result) ?? result
        }

        private mutating func entry(typeName: String?) -> FormatterEntry? {
            guard let typeName else { return nil }
            if let known = entries[typeName] { return known }
            if entries.count >= Self.maximumNames { entries.removeAll(keepingCapacity: true) }
            let entry = registry.entry(typeName: typeName)
            entries[typeName] = entry
            return entry
        }
    }
}
