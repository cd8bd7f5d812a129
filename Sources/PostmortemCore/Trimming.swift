extension StringProtocol {
    /// The text without the leading and trailing characters `drop` matches (Foundation's
    /// `trimmingCharacters(in:)` without Foundation, which would bring its start-up cost to the CLI).
    package func trimmed(where drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension Character {
    /// A space or a tab: what `CharacterSet.whitespaces` holds in the text dumps carry.
    package var isSpaceOrTab: Bool { self == " " || self == "\t" }
}
