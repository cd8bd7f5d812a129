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
        return try read(String(decoding: bytes, as: UTF8.self), format: format, maximumValues: maximumValues)
    }

    /// Every value in a dump that holds several (two `dump()` outputs one after the other, logged values one a line):
    /// a `dump()` output starts again at each line that starts a value at the left margin; `print` output holds a
    /// value a line when each of its lines reads as one. Anything else is one value.
    public static func readAll(bytes: [UInt8], format: DumpFormat? = nil) throws(Failure) -> [DumpReading] {
        if format == nil || format == .plist, BinaryPropertyListParser.recognizes(bytes) {
            return [try read(bytes: bytes, format: format)]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let body = stripPrefixes(text)
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        var budget = ValueBudget(ValueBudget.standard)
        let chosen = format ?? detect(body, budget: &budget).format
        var pieces: [String] = []
        switch chosen {
        case .dump, .po:
            // A value at the left margin starts a new dump (its children are indented).
            var current: [Substring] = []
            for line in lines {
                if !current.isEmpty, line.hasPrefix("▿ ") || line.hasPrefix("- ") || line.hasPrefix("▹ ") {
                    pieces.append(current.joined(separator: "\n"))
                    current = []
                }
                current.append(line)
            }
            pieces.append(current.joined(separator: "\n"))
        case .swiftPrint, .json:
            let values = lines.filter { !$0.allSatisfy(\.isWhitespace) }
            if values.count > 1, values.allSatisfy({ !$0.hasPrefix(" ") && !$0.hasPrefix("\t") }) {
                let readings = values.compactMap { try? read(String($0), format: chosen) }
                if readings.count == values.count, readings.allSatisfy({ $0.node.kind != .raw }) { return readings }
            }
            pieces = [body]
        default:
            pieces = [body]
        }
        if pieces.count == 1 { return [try read(text, format: format)] }
        var readings: [DumpReading] = []
        for piece in pieces where !piece.allSatisfy(\.isWhitespace) { readings.append(try read(piece, format: chosen)) }
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
    /// a timestamp and a level, syslog's), and the name a value was logged under (`user = `).
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
                } else if let length = LogPrefix.length(in: line) {
                    result += text[copiedUpTo..<lineStart]
                    copiedUpTo = line.index(line.startIndex, offsetBy: length)
                } else if let length = LoggerPrefix.length(in: line) {
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
}
