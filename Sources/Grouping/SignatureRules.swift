/// The rules a signature is made by, and how many meaningful frames it takes.
///
/// A rules file has one rule per line: `skip REGEX`, `prefix REGEX`, `sentinel REGEX`, `cut REGEX`, or `frames N`;
/// `#` starts a comment. A user's file comes before the defaults (its `frames` replaces theirs): the first rule that
/// matches a name decides.
package struct SignatureRules: Sendable {
    /// The rules, in the order they are tried: the first that matches a name decides.
    package var rules: [SignatureRule]
    /// How many meaningful frames (not skipped, not prefix) a signature takes.
    package var frameCount: Int
    /// Whether the file said `frames N` (else ``frameCount`` is the default).
    package var setsFrameCount: Bool

    /// Rules taking `frameCount` meaningful frames; `setsFrameCount` when a file said so.
    package init(rules: [SignatureRule], frameCount: Int, setsFrameCount: Bool = true) {
        self.rules = rules
        self.frameCount = frameCount
        self.setsFrameCount = setsFrameCount
    }

    /// Rules read from a file's text; `name` is what errors and `--explain` call it. With `checkingPatterns`, a rule
    /// whose pattern is no regular expression is an error; without, its pattern is not compiled here.
    package static func parse(_ text: String, name: String, checkingPatterns: Bool = true) throws(RulesError)
        -> SignatureRules
    {
        var rules: [SignatureRule] = []
        var frameCount: Int?
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#"), line[..<hash].allSatisfy({ $0 == " " || $0 == "\t" }) {
                line = line[..<hash]
            }
            let trimmed = String(line).trimmingBlanks
            guard !trimmed.isEmpty else { continue }
            let place = "\(name):\(number + 1)"
            let word = trimmed.prefix { $0 != " " && $0 != "\t" }
            let argument = String(String(trimmed.dropFirst(word.count)).trimmingBlanks)
            guard !argument.isEmpty else {
                throw RulesError(place: place, message: "'\(word)' needs a pattern or a number")
            }
            if word == "frames" {
                guard let count = Int(argument), count > 0, count <= 100 else {
                    throw RulesError(place: place, message: "frames takes a number from 1 to 100, not '\(argument)'")
                }
                frameCount = count
                continue
            }
            guard let kind = SignatureRule.Kind(rawValue: String(word)) else {
                throw RulesError(
                    place: place, message: "'\(word)' is not a rule (skip, prefix, sentinel, cut or frames)")
            }
            rules.append(
                try SignatureRule(kind: kind, pattern: argument, origin: place, checkingPattern: checkingPatterns))
        }
        return SignatureRules(
            rules: rules, frameCount: frameCount ?? defaultFrameCount, setsFrameCount: frameCount != nil)
    }

    /// These rules, then `later`'s; this file's frame count when it gives one, else `later`'s.
    package func before(_ later: SignatureRules) -> SignatureRules {
        SignatureRules(rules: rules + later.rules, frameCount: setsFrameCount ? frameCount : later.frameCount)
    }

    /// How many meaningful frames a signature takes unless a rules file says otherwise.
    package static let defaultFrameCount = 3

    /// The built-in rules.
    package static func defaults() -> SignatureRules {
        // The text is ours and tested (its patterns checked by SignatureMakerTests): it always parses, and its patterns
        // are compiled only by the makers that use them (compiling them took most of a `group` run over one log).
        (try? parse(defaultRulesText, name: "defaults", checkingPatterns: false))
            ?? SignatureRules(rules: [], frameCount: defaultFrameCount)
    }
}
