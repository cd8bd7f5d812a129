/// Parses what Swift's `dump()` writes: one value a line, indented two spaces a level, `▿` before a value with
/// children, `▹` before one whose children were cut, `-` before a leaf; `label: summary`; `N elements`,
/// `N key/value pairs`, `(N elements)` tuples, `Optional(…)` with a `some:` child, `#N` class identities.
///
/// lldb's `po` of a Swift value draws the same tree in its own dialect (``Dialect/po``; see `DumpParser+PO.swift`).
public enum DumpParser {
    /// The two tree dialects: Swift's `dump()`, and lldb's `po` (`Swift._DebuggerSupport.stringForPrintObject`).
    public enum Dialect: Sendable {
        /// `label: summary`, unlabelled collection elements, qualified type names.
        case dump
        /// `label : summary`, elements labelled `0 :`, `1 :`, short type names, dictionaries as lists of
        /// `key :`/`value :` pairs, `Optional<T>` with a `some :` child.
        case po
    }

    /// Lines indented deeper than this are read as if they were at this depth (no unbounded recursion).
    public static let maximumDepth = 200

    struct Line {
        var depth: Int
        var hasChildren: Bool
        var label: String?
        var summary: String
        /// Stands for the lines left out when the value budget ran out.
        var isTruncation = false
    }

    /// Whether `line` (its indentation off) begins a value of `dump()` or lldb's `po`: `▿ `, `- ` or `▹ `.
    static func startsValue(_ line: Substring) -> Bool {
        line.hasPrefix("▿ ") || line.hasPrefix("- ") || line.hasPrefix("▹ ")
    }

    /// True when the text looks like `dump()` output: its lines start with the markers.
    public static func recognizes(_ text: String) -> Bool {
        let lines = text.leadingLines(20).filter { !$0.isEmpty }
        return !lines.isEmpty
            && lines.allSatisfy { line in
                let trimmed = line.drop { $0 == " " }
                return startsValue(trimmed) || trimmed.isEmpty
            } && lines.contains { $0.drop { $0 == " " }.hasPrefix("▿") || $0.drop { $0 == " " }.hasPrefix("-") }
    }

    /// Reads at most `budget` values (one a line); when it runs out, what was read comes back with the rest
    /// marked truncated.
    public static func parse(_ text: String, dialect: Dialect = .dump, budget: inout ValueBudget) -> ValueNode {
        let lines = lines(of: text, dialect: dialect, budget: &budget)
        var index = 0
        guard !lines.isEmpty else { return ValueNode(kind: .raw, value: text) }
        var seen: Set<Int> = []
        switch dialect {
        case .dump: return markingReferences(node(lines, &index), seen: &seen)
        case .po: return markingReferences(poNode(lines, &index), seen: &seen)
        }
    }

    /// The value lines of `text`, a line without a marker joined to the one before it, at most `budget` of them (a
    /// truncation line stands for the rest).
    static func lines(of text: String, dialect: Dialect, budget: inout ValueBudget) -> [Line] {
        // Without carriage returns, a line is its bytes up to a line feed: read byte by byte (``lines(in:_:dialect:budget:)``).
        if text.firstUTF8Index(of: 0x0D, in: text.startIndex..<text.endIndex) == nil {
            let bytes = Array(text.utf8)
            return lines(in: bytes, 0..<bytes.count, dialect: dialect, budget: &budget)
        }
        return linesByCharacters(of: text, dialect: dialect, budget: &budget)
    }

    /// ``lines(of:dialect:budget:)`` of text that may hold carriage returns (`\r\n` is one `Character`).
    private static func linesByCharacters(of text: String, dialect: Dialect, budget: inout ValueBudget) -> [Line] {
        var lines: [Line] = []
        // Non-empty lines, found byte by byte as they are needed (splitting a String walks its Characters, a tenth
        // of the speed, and all of them, even past the budget).
        let rawLines = sequence(state: text.startIndex) { start -> Substring? in
            while start < text.endIndex {
                let newline = text.firstUTF8Index(of: 0x0A, in: start..<text.endIndex) ?? text.endIndex
                let line = text[start..<newline]
                start = newline < text.endIndex ? text.utf8.index(after: newline) : text.endIndex
                if !line.isEmpty { return line }
            }
            return nil
        }
        for raw in rawLines {
            let indentation = raw.utf8.prefix { $0 == 0x20 }.count
            guard let (marker, body) = markedValue(raw, indentation: indentation) else {
                let body = raw.dropFirst(indentation)
                if lines.isEmpty, indentation == 0, dialect == .po {
                    // `po` of an empty collection: its summary alone, without a marker.
                    lines.append(Line(depth: 0, hasChildren: false, label: nil, summary: String(body)))
                    continue
                }
                // A line without a marker continues the previous one (a multi-line string).
                if var last = lines.popLast() { last.summary += "\n" + raw; lines.append(last) }
                continue
            }
            guard budget.spend() else {
                lines.append(
                    Line(depth: lines.last?.depth ?? 0, hasChildren: false, label: nil, summary: "", isTruncation: true)
                )
                break
            }
            let (label, summary) = split(body, separator: dialect == .po ? " : " : ": ")
            // Deeper lines than the parser recurses stay in the tree as siblings at the deepest level.
            lines.append(
                Line(
                    depth: min(indentation / 2, maximumDepth), hasChildren: marker != "-", label: label,
                    summary: summary))
        }
        return lines
    }

    /// A class instance printed again (`▹ some: Fixture.Node #0`, without children, after `#0` was printed in full)
    /// is a back-reference to it, not an empty object.
    private static func markingReferences(_ node: ValueNode, seen: inout Set<Int>) -> ValueNode {
        var node = node
        if node.kind == .class, let identity = node.identity {
            if seen.contains(identity), node.children.isEmpty {
                return ValueNode(kind: .reference, typeName: node.typeName, label: node.label, reference: identity)
            }
            seen.insert(identity)
        }
        node.children = node.children.map { markingReferences($0, seen: &seen) }
        return node
    }

    /// The marker (`▿`, `-`, `▹`) that starts `raw` after its `indentation` spaces, and the text after the marker and
    /// the spaces after it, as `Character`s split them; nil when no marker starts the line. (Lines without carriage
    /// returns are read by their bytes first: ``lines(in:_:dialect:budget:)``.)
    static func markedValue(_ raw: Substring, indentation: Int) -> (marker: Character, body: Substring)? {
        let body = raw.dropFirst(indentation)
        guard let marker = body.first, "▿-▹".contains(marker) else { return nil }
        return (marker, body.dropFirst().drop { $0 == " " })
    }

    /// `label: summary` — the label is an identifier before the first separator (strings and types have none).
    static func split(_ body: String, separator: String) -> (String?, String) { split(body[...], separator: separator) }

    /// ``split(_:separator:)-(String,_)`` of a part of a line.
    static func split(_ body: Substring, separator: String) -> (String?, String) {
        guard let colon = body.firstRange(ofASCII: separator) else { return (nil, String(body)) }
        let label = body[..<colon.lowerBound]
        guard isLabel(label) else { return (nil, String(body)) }
        return (String(label), String(body[colon.upperBound...]))
    }

    /// Whether `text` is a label: letters, digits, `_` and `.`, not starting with a digit unless all digits (an
    /// element's index). ASCII text is looked at byte by byte.
    static func isLabel(_ text: Substring) -> Bool {
        if let ascii = isASCIILabel(text.utf8) { return ascii }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
            && (!text.first!.isNumber || text.allSatisfy(\.isNumber))
    }

    /// ``isLabel(_:)`` of ASCII bytes; nil when they are not all ASCII.
    static func isASCIILabel(_ bytes: some Collection<UInt8>) -> Bool? {
        guard let firstByte = bytes.first else { return false }
        var allDigits = true
        var isLabel = true
        for byte in bytes {
            if byte >= 0x80 { return nil }
            let isDigit = TextCursor.isDigit(byte)
            if !(isDigit || byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A || byte == 0x5F || byte == 0x2E) {
                isLabel = false
            }
            allDigits = allDigits && isDigit
        }
        return isLabel && (!TextCursor.isDigit(firstByte) || allDigits)
    }

    /// What ``SwiftPrintParser`` reads from a leaf's text in its plainest forms, read byte by byte: a quoted string
    /// with no escape and no quote inside, a decimal number, `true`, `false`, `nil` — most leaves of most dumps. Nil
    /// for any other text.
    static func plainLeaf(_ text: String) -> ValueNode? {
        let utf8 = text.utf8.span
        guard utf8.count > 0 else { return nil }
        let first = utf8[0]
        if first == UInt8(ascii: "\"") {
            guard utf8.count >= 2, utf8[utf8.count - 1] == UInt8(ascii: "\"") else { return nil }
            for index in 1..<utf8.count - 1 where utf8[index] == UInt8(ascii: "\"") || utf8[index] == UInt8(ascii: "\\")
            {
                return nil
            }
            return ValueNode(kind: .string, value: String(Substring(text.utf8.dropFirst().dropLast())))
        }
        if first >= UInt8(ascii: "a") {
            switch text {
            case "nil": return ValueNode(kind: .null)
            case "true", "false": return ValueNode(kind: .scalar, value: text)
            default: return nil
            }
        }
        // `-`? digits (`.` digits)?
        var index = first == UInt8(ascii: "-") ? 1 : 0
        let wholeStart = index
        while index < utf8.count, TextCursor.isDigit(utf8[index]) { index += 1 }
        guard index > wholeStart else { return nil }
        if index < utf8.count {
            guard utf8[index] == UInt8(ascii: "."), index + 1 < utf8.count else { return nil }
            index += 1
            while index < utf8.count, TextCursor.isDigit(utf8[index]) { index += 1 }
            guard index == utf8.count else { return nil }
        }
        return ValueNode(kind: .scalar, value: text)
    }

    static func node(_ lines: [Line], _ index: inout Int) -> ValueNode {
        let line = lines[index]
        index += 1
        if line.isTruncation { return ValueNode(kind: .truncated) }
        var children: [ValueNode] = []
        while index < lines.count, lines[index].depth > line.depth {
            children.append(node(lines, &index))
        }
        // Most leaves are a string, a number, `true`, `false` or `nil`: none of those ends as a count, a type or a
        // class instance does, checked below.
        if !line.hasChildren, children.isEmpty, var leaf = plainLeaf(line.summary) {
            leaf.label = line.label
            return leaf
        }
        var summary = line.summary
        var identity: Int?
        // A class instance ends with its identity: `Fixture.Node #1`.
        if let hash = summary.utf8.lastIndex(of: UInt8(ascii: "#")), hash > summary.startIndex,
            summary.utf8[summary.utf8.index(before: hash)] == 0x20,
            let number = Int(summary[summary.utf8.index(after: hash)...])
        {
            identity = number
            summary = String(summary[..<summary.utf8.index(before: hash)])
        }
        var result: ValueNode
        if !line.hasChildren && children.isEmpty {
            if summary.hasSuffix(" elements") || summary.hasSuffix(" element"), summary.first?.isNumber == true {
                result = ValueNode(kind: .collection)
            } else if summary.hasSuffix(" members"), summary.first?.isNumber == true {
                result = ValueNode(kind: .set)
            } else if Self.isTypeName(summary) {
                // `- Fixture.Empty`: a structure without fields.
                result = ValueNode(kind: identity == nil ? .structure : .class, typeName: summary)
            } else if summary.hasSuffix(" key/value pairs") || summary.hasSuffix(" key/value pair") {
                result = ValueNode(kind: .dictionary)
            } else {
                result = plainLeaf(summary) ?? SwiftPrintParser.parse(summary)
                if result.kind == .optional, let inner = result.children.first { result = inner }
            }
        } else if summary.hasPrefix("Optional(") {
            // The header holds the value as `print` shows it: a dump cut off before its `some:` child, or in the middle
            // of it, keeps what the header says.
            if let child = children.first,
                !(child.children.isEmpty && (child.value ?? "").isEmpty && child.typeName == nil)
            {
                result = child
            } else {
                result = SwiftPrintParser.parse(summary)
                if result.kind == .optional, let inner = result.children.first { result = inner }
            }
        } else if summary.hasSuffix(" key/value pairs") || summary.hasSuffix(" key/value pair") {
            // Each child is a `(2 elements)` tuple of `key:` and `value:`.
            result = ValueNode(
                kind: .dictionary,
                children: children.compactMap { pair in
                    if pair.kind == .truncated { return pair }
                    guard let key = pair.child("key"), var value = pair.child("value") else { return nil }
                    value.label = key.kind == .string ? key.value : LineRenderer().render(key)
                    return value
                })
        } else if summary.first?.isNumber == true, summary.hasSuffix(" members") || summary.hasSuffix(" member") {
            result = ValueNode(
                kind: .set,
                children: children.map { child in
                    var child = child; child.label = nil; return child
                })
        } else if summary.first?.isNumber == true, summary.hasSuffix(" elements") || summary.hasSuffix(" element") {
            result = ValueNode(
                kind: .collection,
                children: children.map { child in
                    var child = child; child.label = nil; return child
                })
        } else if summary.hasPrefix("("), summary.hasSuffix(" elements)") || summary.hasSuffix(" element)") {
            result = ValueNode(
                kind: .tuple,
                children: children.enumerated().map { index, child in
                    var child = child
                    if child.label == nil { child.label = ".\(index)" }
                    return child
                })
        } else if !Self.isTypeName(summary) && !Self.isCasePath(summary) {
            // A value with its own description (`CustomStringConvertible`): `dump()` prints the description, then the
            // storage behind it (a URL's `_url`, a date's seconds). The description is the value, as `po` shows it; a
            // date keeps its seconds too, the number `JSONEncoder` writes for it.
            if children.count == 1, children[0].label == "timeIntervalSinceReferenceDate",
                let seconds = children[0].value
            {
                result = ValueNode(kind: .scalar, typeName: "Foundation.Date", value: seconds, summary: summary)
            } else {
                result = ValueNode(kind: .scalar, value: summary)
            }
        } else {
            // A structure, class or enum case: `Fixture.Person`, or `Fixture.Shape.circle` with its payload below.
            let lastPart = lastDottedPart(of: summary).map(String.init) ?? summary
            if lastPart.first?.isLowercase == true, !summary.contains(" ") {
                // The payload is one child named after the case: `▿ circle: (1 element)` holding `- radius: 2.0`, or
                // the case's one unlabelled value itself (`- point: 1` under `▿ Fixture.Signal.point`).
                var payload = children
                if children.count == 1, children[0].label == lastPart {
                    if children[0].kind == .tuple { payload = children[0].children } else { payload[0].label = nil }
                }
                result = ValueNode(
                    kind: .enumeration, typeName: summary.split(separator: ".").dropLast().joined(separator: "."),
                    value: lastPart, children: payload)
            } else {
                result = ValueNode(kind: identity == nil ? .structure : .class, typeName: summary, children: children)
            }
        }
        result.label = line.label
        result.identity = identity ?? result.identity
        return result
    }

    /// The last part of a dotted path that is not empty, as `split(separator: ".").last` gives it, found from the end.
    static func lastDottedPart(of text: String) -> Substring? {
        let utf8 = text.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: ".") { utf8.formIndex(before: &end) }
        guard end > utf8.startIndex else { return nil }
        var start = end
        while start > utf8.startIndex, utf8[utf8.index(before: start)] != UInt8(ascii: ".") {
            utf8.formIndex(before: &start)
        }
        return text[start..<end]
    }

    /// `Module.Type` or `Module.Outer.Inner<Swift.Int, Swift.String>`: a dotted path whose last part starts in upper
    /// case (spaces only between generic arguments).
    static func isTypeName(_ text: String) -> Bool {
        if let ascii = isASCIITypeName(text.utf8) { return ascii }
        return isTypeNameByCharacters(text)
    }

    /// ``isTypeName(_:)`` for any text.
    private static func isTypeNameByCharacters(_ text: String) -> Bool {
        guard text.utf8.contains(UInt8(ascii: ".")), text.first?.isLetter == true else { return false }
        let path = text.prefix { $0 != "<" }
        guard path.count == text.count || text.hasSuffix(">"), !path.contains(" ") else { return false }
        return path.split(separator: ".").allSatisfy { part in
            part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
            && path.split(separator: ".").last?.first?.isUppercase == true
    }

    /// ``isTypeName(_:)`` for ASCII text, byte by byte (a summary is checked on every line of a dump, and a
    /// `Character`'s properties cost a table look-up each); nil when the text is not all ASCII.
    private static func isASCIITypeName(_ bytes: String.UTF8View) -> Bool? {
        func isLetter(_ byte: UInt8) -> Bool { byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A }
        func isWordByte(_ byte: UInt8) -> Bool { isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F }
        var sawDot = false, inGenerics = false, partStart = true, lastPartUpper = false, endsGenerics = false
        guard let first = bytes.first else { return false }
        if first >= 0x80 { return nil }
        guard isLetter(first) else { return false }
        for byte in bytes {
            if byte >= 0x80 { return nil }
            if inGenerics {
                endsGenerics = byte == UInt8(ascii: ">")
                sawDot = sawDot || byte == UInt8(ascii: ".")
                continue
            }
            switch byte {
            case UInt8(ascii: "."):
                sawDot = true
                partStart = true
            case UInt8(ascii: "<"): inGenerics = true
            default:
                guard isWordByte(byte) else { return false }
                if partStart { lastPartUpper = byte >= 0x41 && byte <= 0x5A }
                partStart = false
            }
        }
        return sawDot && lastPartUpper && (!inGenerics || endsGenerics)
    }

    /// `Module.Type.case`: an enum case as `dump()` names it, a dotted path of identifiers ending in lower case.
    static func isCasePath(_ text: String) -> Bool {
        // Generic arguments (`Fixture.Result<Swift.Int>.success`) say nothing about the shape.
        var path = "", depth = 0
        for character in text {
            if character == "<" {
                depth += 1
            } else if character == ">" {
                depth -= 1
            } else if depth == 0 {
                path.append(character)
            }
        }
        guard depth == 0, path.first?.isLetter == true || path.first == "_" else { return false }
        let parts = path.split(separator: ".", omittingEmptySubsequences: false)
        return parts.allSatisfy { part in !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }
            && parts.last?.first.map { $0.isLowercase || $0 == "_" } == true
    }
}
