/// How much of a value is shown.
public struct RenderLimits: Hashable, Sendable {
    /// Levels below the top that are expanded; deeper values are summarised.
    public var maxDepth: Int
    /// Children shown per collection; the rest are counted in ``ValueNode/omitted``.
    public var maxItems: Int
    /// Characters shown of a string; longer ones end in `…`.
    public var maxStringLength: Int

    /// Limits that show values as `po` does by default: 8 levels, 100 items, 500 characters of a string.
    public init(maxDepth: Int = 8, maxItems: Int = 100, maxStringLength: Int = 500) {
        self.maxDepth = maxDepth
        self.maxItems = maxItems
        self.maxStringLength = maxStringLength
    }

    /// No limit at all: every level, item and character.
    public static let unlimited = RenderLimits(maxDepth: .max, maxItems: .max, maxStringLength: .max)
}
