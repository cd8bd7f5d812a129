#if canImport(FoundationEssentials)
    import FoundationEssentials // not all of Foundation: its ICU data and start-up cost stay out of the CLI
#else
    import Foundation
#endif

/// Formatters for standard-library and Foundation types whose reflection is unreadable on Linux
/// (a `Date` reflects as a time interval, a `URL` as its storage, `Data` as its bytes).
enum BuiltinFormatters {
    static var categories: [FormatterRegistry.Category] {
        [
            FormatterRegistry.Category(
                name: "foundation",
                entries: [
                    leaf(Date.self) { ($0 as? Date).map { $0.formatted(.iso8601) } },
                    leaf(URL.self) { ($0 as? URL)?.absoluteString },
                    leaf(UUID.self) { ($0 as? UUID)?.uuidString },
                    leaf(Data.self) { ($0 as? Data).map { "\($0.count) bytes" } },
                    leaf(Decimal.self) { ($0 as? Decimal)?.description }
                ]),
            FormatterRegistry.Category(
                name: "swift",
                entries: [
                    FormatterEntry(.genericBase("Swift.Range"), summary: .closure { range("..<", $0) }, isLeaf: true),
                    FormatterEntry(
                        .genericBase("Swift.ClosedRange"), summary: .closure { range("...", $0) }, isLeaf: true)
                ])
        ]
    }

    /// Live values of these types are turned into leaves by the reflector, which can see the value itself.
    static let liveSummaries: [ObjectIdentifier: @Sendable (Any) -> String?] = [
        ObjectIdentifier(Date.self): { ($0 as? Date).map { $0.formatted(.iso8601) } },
        ObjectIdentifier(URL.self): { ($0 as? URL)?.absoluteString },
        ObjectIdentifier(UUID.self): { ($0 as? UUID)?.uuidString },
        ObjectIdentifier(Data.self): { ($0 as? Data).map { "\($0.count) bytes" } },
        ObjectIdentifier(Decimal.self): { ($0 as? Decimal)?.description }
    ]

    private static func leaf<T>(_ type: T.Type, _ summary: @escaping @Sendable (Any) -> String?) -> FormatterEntry {
        // On text dumps there is no value to ask: the summary a dump already has is kept.
        FormatterEntry(.type(type), summary: .closure { $0.summary ?? $0.value }, isLeaf: true)
    }

    private static func range(_ separator: String, _ node: ValueNode) -> String? {
        guard let lower = node.child("lowerBound"), let upper = node.child("upperBound") else { return nil }
        return LineRenderer().render(lower) + separator + LineRenderer().render(upper)
    }
}
