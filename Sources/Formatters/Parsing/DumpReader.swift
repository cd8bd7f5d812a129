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
        let sample = LogLine.split(bytes, maximumLines: LinePrefixes.sampleSize)
        let framing = LogFraming.of(sample) { linesReadAsValuesWithParts($0, format: format) }
        guard !framing.isNone else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: LogLine.joinedBytes(framing.unwrap(LogLine.split(bytes))), as: UTF8.self)
    }

    /// How many of `lines` read as values with parts (a structure, a collection, an enum case…): a string or a number
    /// alone is what any logged line reads as, and a framing that only leaves such values is not the dump's.
    private static func linesReadAsValuesWithParts(_ lines: [LogLine], format: DumpFormat?) -> Int {
        let text = String(decoding: LogLine.joinedBytes(lines), as: UTF8.self)
        guard let readings = try? readAllCountingLines(text: text, format: format) else { return 0 }
        return readings.reduce(0) { total, read in
            switch read.reading.node.kind {
            case .structure, .class, .enumeration, .tuple, .optional, .collection, .dictionary, .set:
                total + read.lines
            case .scalar, .string, .null, .reference, .truncated, .raw: total
            }
        }
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
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        var budget = ValueBudget(ValueBudget.standard)
        var chosen = format ?? detect(body, budget: &budget).format
        // A dump followed by other lines (a `print` value, text) is no dump as a whole, but begins as one: it is read
        // value by value as dumps are.
        if format == nil, chosen != .dump, chosen != .po,
            let first = lines.first(where: { !$0.allSatisfy(\.isWhitespace) }), DumpParser.startsValue(first)
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
            let values = lines.filter { !$0.allSatisfy(\.isWhitespace) }
            if values.count > 1, values.allSatisfy({ !$0.hasPrefix(" ") && !$0.hasPrefix("\t") }) {
                // Each line in its own format (JSON lines of objects, `print` lines of values), unless one is given.
                let readings = values.compactMap { try? read(String($0), format: format) }
                if readings.count == values.count, readings.allSatisfy({ $0.node.kind != .raw }) {
                    return readings.map { ($0, 1) }
                }
            }
            pieces = [lines]
        default:
            pieces = [lines]
        }
        func nonBlank(_ lines: [Substring]) -> Int { lines.count { !$0.allSatisfy(\.isWhitespace) } }
        if pieces.count == 1 { return [(try read(text, format: format), nonBlank(lines))] }
        var readings: [(reading: DumpReading, lines: Int)] = []
        for piece in pieces where nonBlank(piece) > 0 {
            // A dump's value in the dump's format; another line in its own, unless one is given.
            let isDumpValue = piece.first.map(DumpParser.startsValue) ?? false
            let text = piece.joined(separator: "\n")
            readings.append((try read(text, format: format ?? (isDumpValue ? chosen : nil)), nonBlank(piece)))
        }
        return readings
    }

    /// The value `text` holds, read as `format` (else the format it looks like), building at most `maximumValues` values.
    public static func read(
        _ text: String, format: DumpFormat? = nil,
        maximumValues: Int = ValueBudget.standard
    ) throws(Failure) -> DumpReading {
        let body = stripPrefixes(text)
        var budget = ValueBudget(maximumValues)
        let chosen: DumpFormat
        if let format {
            chosen = format
        } else {
            let detected = detect(body, budget: &budget)
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
            let newline = utf8[lineStart...].firstIndex(of: 0x0A)
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
                } else if let length = NSLogPrefix.length(in: line) {
                    result += text[copiedUpTo..<lineStart]
                    copiedUpTo = line.index(line.startIndex, offsetBy: length)
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

    /// Where the value starts on `line` after a logger's prefix (``LoggerPrefix``) and the name it was logged under
    /// (`user = `, `user: `), in UTF-8 bytes; nil when the line has neither, or nothing after its name.
    static func loggedValueStart(in line: Substring) -> Int? {
        let prefix = LoggerPrefix.length(in: line) ?? 0
        let bytes = Array(line.utf8)
        let start = assignmentEnd(bytes, from: prefix) ?? prefix
        return start > 0 && (prefix > 0 || start < bytes.count) ? start : nil
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
