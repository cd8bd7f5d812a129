/// One rule of a signature's making, matched against a frame's normalised function name (the whole name).
///
/// The kinds follow Mozilla's signature generation (irrelevant, prefix, sentinel) and Sentry's stack-trace rules
/// (`^-group`): `skip` drops the frame; `prefix` keeps it above the first meaningful frame without counting it, so
/// the signature goes on to the next frame (an allocator, `memcpy`: where the program was, not which bug), and drops
/// it below (a library's frame between two of the program's only says how one called the other); `sentinel` starts the signature at
/// the first frame it matches, dropping every frame above it; `cut` drops the frame and every frame above it (a
/// signal trampoline: what is above it is the handler that printed the report).
package struct SignatureRule: Hashable, Sendable {
    /// What a rule does to the frames it matches (see the type's description).
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        case skip, prefix, sentinel, cut
    }

    /// What the rule does.
    package var kind: Kind
    /// The pattern as written (a regular expression matched against the whole name).
    package var pattern: String
    /// Where the rule was written (`defaults:12`, `rules.txt:3`), for `--explain`.
    package var origin: String
    /// The names the pattern stands for when it is only names between `|` (no other character a regular expression
    /// gives a meaning to): matched by looking them up, with no expression compiled. Compiling the built-in rules'
    /// expressions took most of a `group` run over a few logs, and most of them are lists of names.
    package let names: Set<String>?

    /// - Throws: when `pattern` is not a regular expression (not checked without `checkingPattern`).
    package init(kind: Kind, pattern: String, origin: String, checkingPattern: Bool = true) throws(RulesError) {
        self.kind = kind
        self.pattern = pattern
        self.origin = origin
        names = Self.names(in: pattern)
        if names == nil, checkingPattern { _ = try expression() }
    }

    /// The characters that give a regular expression's pattern a meaning beyond its text, `|` aside.
    private static let operators = Set("\\^$.?*+()[]{}".utf8)

    /// The names `pattern` is made of, when it is nothing but names between `|`.
    private static func names(in pattern: String) -> Set<String>? {
        guard !pattern.utf8.contains(where: { operators.contains($0) }) else { return nil }
        return Set(pattern.split(separator: "|", omittingEmptySubsequences: false).map(String.init))
    }

    /// Whether the rule matches the whole of `name`, with `expression` the compiled pattern of a rule that is not a
    /// list of names.
    package func matches(_ name: String, expression: Regex<AnyRegexOutput>?) -> Bool {
        if let names { return names.contains(name) }
        return expression.map { (try? $0.wholeMatch(in: name)) != nil } ?? false
    }

    /// The compiled pattern (not kept here: a compiled expression cannot cross threads, a rule can).
    func expression() throws(RulesError) -> Regex<AnyRegexOutput> {
        do { return try Regex(pattern) } catch {
            throw RulesError(place: origin, message: "'\(pattern)' is not a regular expression (\(error))")
        }
    }
}

/// A rules file that cannot be used: where and why.
package struct RulesError: Error, CustomStringConvertible, Sendable {
    /// Where the rule was read (a file and its line).
    package var place: String
    /// What is wrong with it.
    package var message: String
    /// The place and the message, in one line.
    package var description: String { "\(place): \(message)" }
}
