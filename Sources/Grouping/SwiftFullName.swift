import CrashLogs

/// A Swift name demangled in full (`closure #1 (Swift.Int) -> () in inventory.restock(_: inout inventory.Inventory,
/// names: [Swift.String]) -> Swift.Int`), as older runtimes and other tools print it, brought to the simplified form
/// the runtime's backtracer and our symbolicator print (`closure #1 in restock(_:names:)`): the module, the types,
/// the result and the effects go; argument labels stay. So a frame named by a log and the same frame symbolicated
/// here give one signature.
enum SwiftFullName {
    /// Whether `name` looks like a full Swift demangling: a result arrow or the standard library's module in it, and
    /// no C++ scope operator.
    static func isFull(_ name: Substring) -> Bool {
        guard !name.includes("::") else { return false }
        return name.includes(" -> ") || name.includes("Swift.") || name.includes(" : ")
    }

    static func simplify(_ name: Substring) -> String {
        // An operator's characters (`<`, `...<`, `>=`) are its name, not brackets: set aside while the rest is read.
        guard let (operatorName, placeholderText) = withOperatorSetAside(name) else {
            return simplifyWithoutOperators(name)
        }
        return simplifyWithoutOperators(Substring(placeholderText)).replacing(operatorPlaceholder, with: operatorName)
    }

    private static let operatorPlaceholder = "\u{1}operator\u{1}"

    /// The operator of `Swift.Duration.< infix(…)` and the name with a placeholder in its place.
    private static func withOperatorSetAside(_ name: Substring) -> (String, String)? {
        for fixity in [" infix", " prefix", " postfix"] {
            guard let range = name.firstRange(of: fixity) else { continue }
            let operatorCharacters = "/=-+*%<>!&|^~?."
            var start = range.lowerBound
            while start > name.startIndex, operatorCharacters.contains(name[name.index(before: start)]) {
                start = name.index(before: start)
            }
            // The run's first dot is the path's (`Comparable...<` is `Comparable` and `..<`; `SIMD<…>..>` is `.>`).
            guard let dot = name[start..<range.lowerBound].firstIndex(of: ".") else { continue }
            let operatorStart = name.index(after: dot)
            guard operatorStart < range.lowerBound else { continue }
            return (
                String(name[operatorStart..<range.lowerBound]),
                name[..<operatorStart] + operatorPlaceholder + name[range.lowerBound...]
            )
        }
        return nil
    }

    private static func simplifyWithoutOperators(_ name: Substring) -> String {
        var text = name
        // Words before the function that the simplified form keeps or that the normaliser drops later.
        if text.hasPrefix("partial apply forwarder for ") { return "partial apply for " + simplify(text.dropFirst(28)) }
        for prefix in ["static ", "partial apply for ", "@objc ", "protocol witness for "] where text.hasPrefix(prefix)
        {
            return prefix + simplify(text.dropFirst(prefix.count))
        }
        if text.hasPrefix("default argument "), let of = text.firstRange(of: " of ") {
            return text[..<of.upperBound] + simplify(text[of.upperBound...])
        }
        if let rest = afterPrefix(of: text) { return simplify(rest) }
        // `closure #1 (Swift.Int) -> () in CONTEXT`, `implicit closure #2 () -> Swift.String in CONTEXT`.
        for closure in ["closure #", "implicit closure #"] where text.hasPrefix(closure) {
            let numberEnd = text.dropFirst(closure.count).firstIndex { !$0.isNumber } ?? text.endIndex
            let head = text[..<numberEnd]
            guard let inRange = topLevelRange(of: " in ", in: text[numberEnd...]) else { return String(text) }
            return head + " in " + simplify(text[inRange.upperBound...])
        }
        // `(extension in Foundation):Swift.String.init(…)`: the extension's module is no part of the simplified name.
        while let range = text.firstRange(of: "(extension in "),
            let end = text[range.upperBound...].firstRange(of: "):")
        {
            text = text[..<range.lowerBound] + text[end.upperBound...]
        }
        text = Substring(withoutWhereClauses(withoutPrivateDiscriminators(text)))
        // A property or accessor: `Swift.Array.subscript.getter : (Swift.Int) -> A`.
        if let colon = topLevelRange(of: " : ", in: text) { return withoutModule(text[..<colon.lowerBound]) }
        guard let open = topLevelIndex(of: "(", in: text), let close = matching(open, in: text) else {
            return withoutModule(text)
        }
        return withoutModule(text[..<open]) + "(" + labels(text[text.index(after: open)..<close]) + ")"
    }

    /// `_: Swift.Int, names: [Swift.String]` → `_:names:`.
    private static func labels(_ list: Substring) -> String {
        parameters(list).map { parameter -> String in
            let label = parameter.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            return !label.isEmpty && parameter.dropFirst(label.count).hasPrefix(": ") ? label + ":" : "_:"
        }.joined()
    }

    /// `reduce<A where A1: Swift.Sequence>` → `reduce<A>`, `Dictionary< where B: Swift.Hashable>` → `Dictionary<>`: the
    /// simplified form leaves requirements out.
    private static func withoutWhereClauses(_ text: String) -> String {
        var result = ""
        var angleDepth = 0
        var skippingUntilDepth: Int?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "-", text[index...].hasPrefix("->") {
                if skippingUntilDepth == nil { result += "->" }
                index = text.index(index, offsetBy: 2)
                continue
            }
            if character == "<" { angleDepth += 1 }
            if character == ">" {
                if angleDepth == skippingUntilDepth { skippingUntilDepth = nil }
                angleDepth -= 1
            }
            if skippingUntilDepth == nil, angleDepth > 0, text[index...].hasPrefix(" where ") {
                skippingUntilDepth = angleDepth
            }
            if skippingUntilDepth == nil { result.append(character) }
            index = text.index(after: index)
        }
        return result
    }

    /// What follows `(1) suspend resume partial function for `, `function signature specialization <…> of `,
    /// `generic specialization <…> of `, `specialized `.
    static func afterPrefix(of text: Substring) -> Substring? {
        if text.first == "(", let close = text.firstIndex(of: ")"), text.dropFirst().prefix(while: \.isNumber).count > 0
        {
            var rest = text[text.index(after: close)...].drop { $0 == " " }
            for word in ["suspend ", "await "] where rest.hasPrefix(word) { rest = rest.dropFirst(word.count) }
            if rest.hasPrefix("resume partial function for ") {
                return rest.dropFirst("resume partial function for ".count)
            }
        }
        for prefix in [
            "function signature specialization ", "generic specialization ", "generic partial specialization "
        ]
        where text.hasPrefix(prefix) {
            let rest = text.dropFirst(prefix.count)
            guard rest.first == "<", let close = closingAngleBracket(in: rest) else { return nil }
            let after = rest[rest.index(after: close)...]
            return after.hasPrefix(" of ") ? after.dropFirst(4) : nil
        }
        for prefix in ["specialized ", "merged "] where text.hasPrefix(prefix) { return text.dropFirst(prefix.count) }
        return nil
    }

    /// The `>` closing the `<` that starts `text`, counting angle brackets only: a specialisation's arguments are
    /// printed with square brackets that need not balance (`<Arg[1] = [Closure Propagated : …, Argument Types : […]>`).
    private static func closingAngleBracket(in text: Substring) -> Substring.Index? {
        var depth = 0
        for index in text.indices {
            // `->` inside (a closure's type) closes nothing.
            if text[index] == ">", index > text.startIndex, text[text.index(before: index)] == "-" { continue }
            if text[index] == "<" { depth += 1 }
            if text[index] == ">" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// The function a compiler-made piece of it is named after: `name` without its async-partial-function,
    /// specialisation and merging words, however many.
    static func withoutWrappers(_ name: Substring) -> Substring {
        var text = name
        while let rest = afterPrefix(of: text) { text = rest }
        return text
    }

    /// `Backtrace.(printBacktrace in _B82A8C0E…)` → `Backtrace.printBacktrace`.
    private static func withoutPrivateDiscriminators(_ text: Substring) -> String {
        var result = ""
        var rest = text
        while let open = rest.firstRange(of: ".(") {
            result += rest[..<open.lowerBound] + "."
            let inner = rest[open.upperBound...]
            // `Responder.(in _B4B8…).init()`: a private declaration named only by its file's discriminator.
            if inner.hasPrefix("in _"), let close = inner.firstIndex(of: ")") {
                result.removeLast()
                rest = inner[inner.index(after: close)...]
                continue
            }
            guard let inWord = inner.firstRange(of: " in _"),
                let close = inner[inWord.upperBound...].firstIndex(of: ")")
            else {
                result += "("
                rest = inner
                continue
            }
            result += inner[..<inWord.lowerBound]
            rest = inner[inner.index(after: close)...]
        }
        return result + rest
    }

    /// The path without its first component, the module (`inventory.Inventory.required` → `Inventory.required`).
    private static func withoutModule(_ path: Substring) -> String {
        guard let dot = topLevelIndex(of: ".", in: path) else { return String(path) }
        return String(path[path.index(after: dot)...])
    }

    /// The parameters of a list, split at the commas of its own level.
    private static func parameters(_ list: Substring) -> [Substring] {
        guard !list.isEmpty else { return [] }
        var result: [Substring] = []
        var depth = 0
        var start = list.startIndex
        var index = list.startIndex
        while index < list.endIndex {
            switch list[index] {
            case "(", "<", "[": depth += 1
            case ")", ">", "]": depth -= 1
            case "-" where list[index...].hasPrefix("->"):
                // `->` is no closing bracket.
                index = list.index(index, offsetBy: 2)
                continue
            case "," where depth == 0:
                result.append(list[start..<index])
                start = list.index(index, offsetBy: 2, limitedBy: list.endIndex) ?? list.endIndex
            default: break
            }
            index = list.index(after: index)
        }
        result.append(list[start...])
        return result
    }

    /// The first `character` outside brackets.
    private static func topLevelIndex(of character: Character, in text: Substring) -> Substring.Index? {
        walk(text) { index, depth in depth == 0 && text[index] == character }
    }

    /// The first `word` outside brackets.
    private static func topLevelRange(of word: String, in text: Substring) -> Range<Substring.Index>? {
        walk(text) { index, depth in depth == 0 && text[index...].hasPrefix(word) }
            .map { $0..<text.index($0, offsetBy: word.count) }
    }

    /// The bracket closing the one at `open`.
    private static func matching(_ open: Substring.Index, in text: Substring) -> Substring.Index? {
        walk(text[open...]) { index, depth in depth == 1 && ")>]".contains(text[index]) }
    }

    /// Walks `text` keeping count of open brackets (`->` is an arrow, not one), and returns the first index where
    /// `stop` holds; `stop` sees the depth before the character at the index counts (a closing bracket at depth 1
    /// closes the outermost).
    private static func walk(_ text: Substring, stop: (Substring.Index, Int) -> Bool) -> Substring.Index? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let current = text[index]
            if current == "-", text[index...].hasPrefix("->") {
                index = text.index(index, offsetBy: 2)
                continue
            }
            if stop(index, depth) { return index }
            if "(<[".contains(current) { depth += 1 }
            if ")>]".contains(current) { depth -= 1 }
            index = text.index(after: index)
        }
        return nil
    }
}
