#if canImport(FoundationEssentials)
import FoundationEssentials  // not all of Foundation: its ICU data and start-up cost stay out of the CLI
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

/// Reads dumped text into a ``ValueNode`` tree: strips log prefixes, detects the format (or takes the one
/// given), and parses.
public enum DumpReader {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads a dump given as bytes: a binary property list, or text (invalid UTF-8 replaced).
    public static func read(bytes: [UInt8], format: DumpFormat? = nil) throws(Failure) -> (node: ValueNode, format: DumpFormat) {
        if format == nil || format == .plist, BinaryPropertyListParser.recognizes(bytes) {
            do { return (try BinaryPropertyListParser.parse(bytes), .plist) } catch { throw Failure(description: error.description) }
        }
        return try read(String(decoding: bytes, as: UTF8.self), format: format)
    }

    public static func read(_ text: String, format: DumpFormat? = nil) throws(Failure) -> (node: ValueNode, format: DumpFormat) {
        let body = stripPrefixes(text)
        let chosen = format ?? detect(body)
        switch chosen {
        case .json:
            do { return (try JSONValueParser.parse(body), .json) } catch { throw Failure(description: error.description) }
        case .plist:
            do { return (try PropertyListXMLParser.parse(body), .plist) } catch { throw Failure(description: error.description) }
        case .dump: return (DumpParser.parse(body), .dump)
        case .po: return (DumpParser.parse(body, dialect: .po), .po)
        case .lldb: return (LLDBVariableParser.parse(body), .lldb)
        case .cfDescription: return (CFDescriptionParser.parse(body), .cfDescription)
        case .swiftPrint: return (SwiftPrintParser.parse(body), .swiftPrint)
        case .openStep: return (OpenStepParser.parse(body), .openStep)
        }
    }

    static func detect(_ text: String) -> DumpFormat {
        let trimmed = text.trimmed(where: \.isWhitespace)
        if PropertyListXMLParser.recognizes(trimmed) { return .plist }
        if CFDescriptionParser.recognizes(trimmed) { return .cfDescription }
        if DumpParser.recognizes(trimmed) { return DumpParser.looksLikePO(trimmed) ? .po : .dump }
        if LLDBVariableParser.recognizes(trimmed) { return .lldb }
        // Text that is valid JSON is JSON (`[1, 2]` printed by Swift reads the same either way).
        if (try? JSONValueParser.parse(trimmed)) != nil { return .json }
        if OpenStepParser.recognizes(trimmed) { return .openStep }
        return .swiftPrint
    }

    /// Drops what loggers and debuggers put before a dump: `(lldb) po x` lines, `Printing description of x:`,
    /// and NSLog/os_log prefixes (`2024-05-01 10:00:00.123 App[42:7] `).
    static func stripPrefixes(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> Substring? in
            if line.hasPrefix("(lldb) ") || line.hasPrefix("Printing description of ") { return nil }
            if let match = line.firstMatch(of: #/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?([+-]\d{4})? \S+\[\d+(:\w+)?\] /#) {
                return line[match.range.upperBound...]
            }
            return line
        }.joined(separator: "\n")
    }
}
