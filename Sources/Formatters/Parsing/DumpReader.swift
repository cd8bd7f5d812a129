import LogFraming
import PostmortemCore

#if canImport(FoundationEssentials)
    import FoundationEssentials // not all of Foundation: its ICU data and start-up cost stay out of the CLI
#else
    import Foundation
#endif

/// The formats of dumped text `postmortem po` reads.
public enum DumpFormat: String, Hashable, Sendable, CaseIterable {
    /// Swift's `print` and `debugPrint`.
    case swiftPrint = "print"
    /// Swift's `dump()`.
    case dump
    case json
    /// Foundation's `NSDictionary` / `NSArray` descriptions (`{ key = value; }`, `( a, b )`).
    case openStep = "nsdictionary"
    /// lldb's `po` of a Swift value (`▿ Person`, `- name : "Ada"`).
    case po
    /// lldb's `p`, `expression` and `frame variable` output (`(Person) $R0 = { name = "Ada" }`), and the REPL's.
    case lldb
    /// CoreFoundation's descriptions (`CFShow`, "Print Description" of a CFDictionary: `<CFBasicHash 0x…>{…}`).
    case cfDescription = "cf"
    /// Property lists, XML or binary (`bplist00`).
    case plist
}

/// What ``DumpReader`` read: the tree, the format it was read as, and whether the whole dump fit in the value
/// budget (when it did not, the tree ends in ``ValueNode/Kind/truncated`` values where reading stopped).
public struct DumpReading: Sendable {
    /// The value read, as a tree.
    public var node: ValueNode
    /// The format the text was read as.
    public var format: DumpFormat
    /// False when the value budget ran out and the tree ends in truncated values.
    public var isComplete: Bool
}

/// Reads dumped text into a ``ValueNode`` tree: strips log prefixes, detects the format (or takes the one
/// given), and parses.
public enum DumpReader {
    /// Why a dump could not be read: the format's reason, with where.
    public struct Failure: Error, CustomStringConvertible {
        /// The reason in one line.
        public var description: String
    }

    /// Reads a dump given as bytes: a binary property list, or text (invalid UTF-8 replaced). At most
    /// `maximumValues` values are read: memory stays bounded whatever the input's size.
    public static func read(
        bytes: [UInt8], format: DumpFormat? = nil,
        maximumValues: Int = ValueBudget.standard
    ) throws(Failure) -> DumpReading {
        if format == nil || format == .plist, BinaryPropertyListParser.recognizes(bytes) {
            var budget = ValueBudget(maximumValues)
            do {
                let node = try BinaryPropertyListParser.parse(bytes, budget: &budget)
                return DumpReading(node: node, format: .plist, isComplete: !budget.isExhausted)
            } catch { throw Failure(description: error.description) }
        }
        return try read(unframedText(bytes, format: format), format: format, maximumValues: maximumValues)
    }

    /// The text of `bytes` as the values were logged: out of the JSON lines or from behind the logger's prefix on every
    /// line that carried them (``LogFraming``: `docker logs`' objects, `kubectl logs --prefix`, `--timestamps`), when the
    /// text reads as a value with parts so and no worse than as it came. Most dumps have no framing and cost a look at
    /// their first lines.
    static func unframedText(_ bytes: [UInt8], format: DumpFormat?) -> String {
        let framing = LogFraming.of(bytes: bytes) { linesReadAsValuesWithParts($0, format: format) }
        guard !framing.isNone else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: LogLine.joinedBytes(framing.unwrap(LogLine.split(bytes))), as: UTF8.self)
    }

    /// How many of `lines` read as values with parts (a structure, a collection, an enum case…): a string or a number
    /// alone is what any logged line reads as, and a framing that only leaves such values is not the dump's.
    static func linesReadAsValuesWithParts(_ lines: [LogLine], format: DumpFormat?) -> Int {
        let text = String(decoding: LogLine.joinedBytes(lines), as: UTF8.self)
        guard let readings = try? readAllCountingLines(text: text, format: format) else { return 0 }
        return readings.reduce(0) { total, read in read.reading.node.hasParts ? total + read.lines : total }
    }

    /// Every value in a dump that holds several (two `dump()` outputs one after the other, logged values one a line):
    /// a `dump()` output starts again at each line that starts a value at the left margin; `print` output holds a
    /// value a line when each of its lines reads as one. Anything else is one value.
    public static func readAll(bytes: [UInt8], format: DumpFormat? = nil) throws(Failure) -> [DumpReading] {
        if format == nil || format == .plist, BinaryPropertyListParser.recognizes(bytes) {
            return [try read(bytes: bytes, format: format)]
        }
        return try readAll(text: unframedText(bytes, format: format), format: format)
    }

    /// Every value in `text` (``readAll(bytes:format:)`` once the framing is off).
    static func readAll(text: String, format: DumpFormat?) throws(Failure) -> [DumpReading] {
        try readAllCountingLines(text: text, format: format).map(\.reading)
    }

    /// Every value in `text`, each with how many non-blank lines it was read from.
    static func readAllCountingLines(text: String, format: DumpFormat?) throws(Failure) -> [(
        reading: DumpReading, lines: Int
    )] {
        let body = stripPrefixes(text)
        let lines = Self.lines(of: body)
        var budget = ValueBudget(ValueBudget.standard)
        // Detecting JSON reads it: that reading is the value when the text is one.
        let detected = format == nil ? detect(body, budget: &budget) : nil
        var chosen = format ?? detected!.format
        // A dump followed by other lines (a `print` value, text) is no dump as a whole, but begins as one: it is read
        // value by value as dumps are.
        if format == nil, chosen != .dump, chosen != .po,
            let first = lines.first(where: { !isBlank($0) }), DumpParser.startsValue(first)
        {
            let value = lines.prefix { $0 == first || $0.isEmpty || $0.first == " " || $0.first == "\t" }
            let text = value.joined(separator: "\n")
            if DumpParser.recognizes(text) { chosen = DumpParser.looksLikePO(text) ? .po : .dump }
        }
        var pieces: [[Substring]] = []
        switch chosen {
        case .dump, .po:
            // A value at the left margin starts a new dump (its children are indented); so does any other line at the
            // left margin (a `print` value, a line of text after the dump), read in a format of its own.
            var current: [Substring] = []
            for line in lines {
                let atMargin = !line.isEmpty && line.first != " " && line.first != "\t"
                if !current.isEmpty, atMargin {
                    pieces.append(current)
                    current = []
                }
                current.append(line)
            }
            pieces.append(current)
        case .swiftPrint, .json:
            // Values one after the other (logged a line each, or over several lines as NSLog writes a dictionary), with
            // lines of words between them: each value in its own format, unless one is given, and each line of words
            // as text. When no piece is a value with parts, or values hold less than a quarter of the lines, the text is
            // one value, read whole.
            let values = balancedPieces(lines)
            let readings =
                values.count < 2
                ? []
                : values.map { piece -> (reading: DumpReading, lines: Int) in
                    let text = piece.joined(separator: "\n")
                    let lineCount = piece.count { !isBlank($0) }
                    var pieceBudget = ValueBudget(ValueBudget.standard)
                    if let reading = try? read(stripped: text, format: format, detected: nil, budget: &pieceBudget),
                        reading.node.hasParts || reading.node.isLeafValue
                    {
                        return (reading, lineCount)
                    }
                    return (
                        DumpReading(node: ValueNode(kind: .raw, value: text), format: chosen, isComplete: true),
                        lineCount
                    )
                }
            // Values must be a good share of the text: a crash log's stray bracketed line (`[0x7f6b13882bf1]`,
            // `(number of FDs: 115)`) among hundreds of lines of words does not make it a text of values.
            let valueLines = readings.reduce(0) { $0 + ($1.reading.node.hasParts ? $1.lines : 0) }
            if valueLines > 0, valueLines * 4 >= readings.reduce(0, { $0 + $1.lines }) { return readings }
            pieces = [lines]
        case .plist, .lldb, .cfDescription, .openStep:
            pieces = [lines]
        }
        func nonBlank(_ lines: [Substring]) -> Int { lines.count { !isBlank($0) } }
        pieces.removeAll { nonBlank($0) == 0 }
        if pieces.count <= 1 {
            return [(try read(stripped: body, format: format, detected: detected, budget: &budget), nonBlank(lines))]
        }
        var readings: [(reading: DumpReading, lines: Int)] = []
        for piece in pieces {
            // A dump's value in the dump's format; another line in its own, unless one is given. A piece that does not
            // read in the format given is text among the values, kept as it is.
            let isDumpValue = piece.first.map(DumpParser.startsValue) ?? false
            let text = piece.joined(separator: "\n")
            var pieceBudget = ValueBudget(ValueBudget.standard)
            let reading = try read(
                stripped: text, format: format ?? (isDumpValue ? chosen : nil), detected: nil, budget: &pieceBudget)
            readings.append((reading, nonBlank(piece)))
        }
        return readings
    }

    /// Whether `line` holds only spaces and tabs, looked at byte by byte (a `Character`'s properties cost a table
    /// look-up each, over every line of a dump of megabytes).
    static func isBlank(_ line: Substring) -> Bool {
        line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0B || $0 == 0x0C }
    }

    /// The lines of `text`, split at `\n` byte by byte (a `String`'s own split walks its characters, a tenth of the
    /// speed); `\r\n`, one character, ends no line, as in that split.
    static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var cursor = start
        while let newline = text.firstUTF8Index(of: 0x0A, in: cursor..<utf8.endIndex) {
            cursor = utf8.index(after: newline)
            if newline > start, utf8[utf8.index(before: newline)] == 0x0D { continue }
            lines.append(text[start..<newline])
            start = cursor
        }
        lines.append(text[start...])
        return lines
    }

    /// `lines` cut where each value of a text of values ends: a piece ends at the end of a line where every bracket
    /// opened since the piece began is closed (brackets inside quoted strings do not count). Blank lines between
    /// values go with the piece before. When the last piece's brackets never close, its lines are pieces of their
    /// own: a stray bracket in a line of text does not swallow the values after it.
    static func balancedPieces(_ lines: [Substring]) -> [[Substring]] {
        var pieces: [[Substring]] = []
        var current: [Substring] = []
        var depth = 0
        // A value of one line (a large one among them) is one piece: no need to count its brackets.
        if lines.count(where: { !isBlank($0) }) <= 1 { return [lines] }
        for line in lines {
            if current.isEmpty, isBlank(line), !pieces.isEmpty {
                pieces[pieces.count - 1].append(line)
                continue
            }
            current.append(line)
            depth = max(0, depth + bracketBalance(line))
            if depth == 0 {
                pieces.append(current)
                current = []
            }
        }
        pieces += current.filter { !isBlank($0) }.map { [$0] }
        return pieces
    }

    /// Brackets opened less brackets closed on `line`, outside `"…"` strings.
    private static func bracketBalance(_ line: Substring) -> Int {
        var balance = 0
        var inString = false
        var escaped = false
        for byte in line.utf8 {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): balance += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): balance -= 1
            default: break
            }
        }
        return balance
    }

    /// The value `text` holds, read as `format` (else the format it looks like), building at most `maximumValues` values.
    public static func read(
        _ text: String, format: DumpFormat? = nil,
        maximumValues: Int = ValueBudget.standard
    ) throws(Failure) -> DumpReading {
        var budget = ValueBudget(maximumValues)
        return try read(stripped: stripPrefixes(text), format: format, detected: nil, budget: &budget)
    }

    /// The value `body` holds, its prefixes already stripped, read as `format`, else as `detected` (what ``detect(_:budget:)``
    /// found, its reading kept), else as the format it looks like.
    private static func read(
        stripped body: String, format: DumpFormat?, detected: (format: DumpFormat, node: ValueNode?)?,
        budget: inout ValueBudget
    ) throws(Failure) -> DumpReading {
        let chosen: DumpFormat
        if let format {
            chosen = format
        } else {
            let detected = detected ?? detect(body, budget: &budget)
            if let node = detected.node {
                return DumpReading(node: node, format: detected.format, isComplete: !budget.isExhausted)
            }
            chosen = detected.format
        }
        let node: ValueNode
        switch chosen {
        case .json:
            do { node = try JSONValueParser.parse(body, budget: &budget) } catch {
                throw Failure(description: error.description)
            }
        case .plist:
            do { node = try PropertyListXMLParser.parse(body, budget: &budget) } catch {
                throw Failure(description: error.description)
            }
        case .dump: node = DumpParser.parse(body, budget: &budget)
        case .po: node = DumpParser.parse(body, dialect: .po, budget: &budget)
        case .lldb: node = LLDBVariableParser.parse(body, budget: &budget)
        case .cfDescription: node = CFDescriptionParser.parse(body, budget: &budget)
        case .swiftPrint: node = SwiftPrintParser.parse(body, budget: &budget)
        case .openStep: node = OpenStepParser.parse(body, budget: &budget)
        }
        return DumpReading(node: node, format: chosen, isComplete: !budget.isExhausted)
    }

    /// The format of `text`, and what was read when detecting it meant reading it: JSON is recognised by parsing
    /// it, and that reading is kept (spending `budget`) rather than done twice.
    static func detect(_ text: String, budget: inout ValueBudget) -> (format: DumpFormat, node: ValueNode?) {
        let trimmed = text.trimmed(where: \.isWhitespace)
        if PropertyListXMLParser.recognizes(trimmed) { return (.plist, nil) }
        if CFDescriptionParser.recognizes(trimmed) { return (.cfDescription, nil) }
        if DumpParser.recognizes(trimmed) { return (DumpParser.looksLikePO(trimmed) ? .po : .dump, nil) }
        // An empty collection alone: lldb's `po` writes its summary without a marker.
        if trimmed == "0 elements" || trimmed == "0 key/value pairs" || trimmed == "0 members" { return (.po, nil) }
        if LLDBVariableParser.recognizes(trimmed) { return (.lldb, nil) }
        // Text that is valid JSON is JSON (`[1, 2]` printed by Swift reads the same either way).
        var attempt = budget
        if let node = try? JSONValueParser.parse(trimmed, budget: &attempt) {
            budget = attempt
            return (.json, node)
        }
        return (OpenStepParser.recognizes(trimmed) ? .openStep : .swiftPrint, nil)
    }

    /// Drops what loggers and debuggers put before a dump: `(lldb) po x` lines, `Printing description of x:`,
    /// NSLog/os_log prefixes (`2024-05-01 10:00:00.123 App[42:7] `), other loggers' (``LoggerPrefix``: swift-log's,
    /// a timestamp and a level, syslog's), and the name a value was logged under (`user = `). Known prefixes are
    /// found line by line: a value of several lines is logged with one on its first line only.
    static func stripPrefixes(_ text: String) -> String {
        var result = ""
        var copiedUpTo = text.startIndex
        var lineStart = text.startIndex
        let utf8 = text.utf8
        while lineStart < text.endIndex {
            let newline = text.firstUTF8Index(of: 0x0A, in: lineStart..<text.endIndex)
            let lineEnd = newline ?? text.endIndex
            let next = newline.map { utf8.index(after: $0) } ?? text.endIndex
            let line = text[lineStart..<lineEnd]
            // Only lines that start with `(`, a letter or a digit can carry a prefix.
            if let first = utf8[lineStart...].first,
                first == UInt8(ascii: "(") || TextCursor.isDigit(first)
                    || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A)
            {
                if line.hasPrefix("(lldb) ") || line.hasPrefix("Printing description of ") {
                    result += text[copiedUpTo..<lineStart]
                    copiedUpTo = next
                } else if let length = loggedValueStart(in: line) {
                    result += text[copiedUpTo..<lineStart]
                    copiedUpTo = line.utf8.index(line.startIndex, offsetBy: length)
                }
            }
            lineStart = next
        }
        if copiedUpTo == text.startIndex { return text }
        result += text[copiedUpTo...]
        return result
    }

    /// Where the value starts on `line` after a logger's prefix (``NSLogPrefix``, ``LoggerPrefix``) and what was
    /// logged before the value: the name it was logged under (`user = `, `user: `) or a message's words
    /// (`profile loaded: Profile(…)`, ``valueAfterMessage(_:from:)``), in UTF-8 bytes; nil when the line has none
    /// of these, or nothing after its name.
    static func loggedValueStart(in line: Substring) -> Int? {
        let prefix = NSLogPrefix.length(in: line) ?? LoggerPrefix.length(in: line) ?? 0
        let bytes = Array(line.utf8)
        let start = assignmentEnd(bytes, from: prefix) ?? valueAfterMessage(bytes, from: prefix) ?? prefix
        return start > 0 && (prefix > 0 || start < bytes.count) ? start : nil
    }

    /// Where a value starts after a message's words on a logged line (`profile loaded: Profile(name: "Ada")`,
    /// `Loaded profiles: [...]`, `account => Account(...)`): after a space, at a type's name and its `(`, or at a
    /// bracket after words that end in `:`, `=`, `=>` or `->`, with no quote or bracket in the words before it, when the rest of the line reads whole as a value with parts
    /// and ends with its closing bracket, or is an opening bracket alone (a value of several lines, as NSLog writes
    /// an `NSDictionary`). A bracket in the words (`retrying (3 of 5)`) or a value that does not read leaves the line
    /// as it is: text, not a value.
    static func valueAfterMessage(_ bytes: [UInt8], from start: Int) -> Int? {
        // A message begins with a word: a line of a dump (`  ▿ next: Optional(…)`) does not.
        guard start < bytes.count, bytes[start] | 0x20 >= 0x61, bytes[start] | 0x20 <= 0x7A else { return nil }
        var index = start
        while index + 1 < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "<"),
                0xE2: // and the first byte of `dump()`'s markers, `▿` and `▹` (of `…`, `→` too: no value follows those)
                return nil
            case 0x20 where index > start:
                if let closer = openedValue(bytes, at: index + 1),
                    closer == UInt8(ascii: ")") && bytes[index + 1] != UInt8(ascii: "(")
                        || endsWithSeparator(bytes, at: index)
                {
                    let rest = bytes[(index + 1)...]
                    var last = bytes.count - 1
                    while last > index, bytes[last] == 0x20 || bytes[last] == 0x09 || bytes[last] == 0x0D { last -= 1 }
                    if last == index + 1 { return index + 1 } // an opening bracket alone: the value goes on below
                    // A tuple after words is prose's parenthesis as often as a value: `(` opens one of several lines only.
                    guard bytes[last] == closer, bytes[index + 1] != UInt8(ascii: "("),
                        let reading = try? read(String(decoding: rest, as: UTF8.self)),
                        reading.node.hasParts, !reading.node.containsRaw
                    else { return nil }
                    return index + 1
                }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// Whether the words before the space at `space` end as a message that names a value does: `:`, `=`, `=>`, `->`.
    /// A bracket after other words is the words' own (`launchd [1]`, a process and its pid).
    private static func endsWithSeparator(_ bytes: [UInt8], at space: Int) -> Bool {
        guard space > 0 else { return false }
        switch bytes[space - 1] {
        case UInt8(ascii: ":"), UInt8(ascii: "="): return true
        case UInt8(ascii: ">"):
            return space > 1 && (bytes[space - 2] == UInt8(ascii: "=") || bytes[space - 2] == UInt8(ascii: "-"))
        default: return false
        }
    }

    /// The closing bracket of the value that starts at `start` in `bytes` (`[`, `{`, `(`, a type's name and `(`, as
    /// `Profile(`, `Module.Type<Int>(`), or nil when none starts there.
    private static func openedValue(_ bytes: [UInt8], at start: Int) -> UInt8? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "["): return UInt8(ascii: "]")
        case UInt8(ascii: "{"): return UInt8(ascii: "}")
        case UInt8(ascii: "("): return UInt8(ascii: ")")
        case UInt8(ascii: "A")...UInt8(ascii: "Z"):
            var index = start
            var angles = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "(") { return angles == 0 ? UInt8(ascii: ")") : nil }
                if byte == UInt8(ascii: "<") {
                    angles += 1
                } else if byte == UInt8(ascii: ">") {
                    angles -= 1
                } else if !(byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) && !TextCursor.isDigit(byte)
                    && byte != UInt8(ascii: "_") && byte != UInt8(ascii: ".")
                    && !(angles > 0 && (byte == UInt8(ascii: ",") || byte == 0x20))
                {
                    return nil
                }
                index += 1
            }
            return nil
        default: return nil
        }
    }

    /// The end of `name = ` or `name: ` (a Swift identifier, dotted) at `start` of `bytes`, before a value that follows
    /// on the same line.
    private static func assignmentEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        func isLetter(_ byte: UInt8) -> Bool { byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A }
        var index = start
        guard index < bytes.count, isLetter(bytes[index]) || bytes[index] == UInt8(ascii: "_") else { return nil }
        while index < bytes.count,
            isLetter(bytes[index]) || TextCursor.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_")
                || bytes[index] == UInt8(ascii: ".")
        {
            index += 1
        }
        if index + 2 < bytes.count, bytes[index] == 0x20, bytes[index + 1] == UInt8(ascii: "="),
            bytes[index + 2] == 0x20
        {
            return index + 3
        }
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == 0x20 { return index + 2 }
        return nil
    }
}
