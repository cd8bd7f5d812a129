import LogFraming
import PostmortemCore

/// A dump whose value is one collection, read an element at a time: a JSON array or object, or a `dump()` of a
/// collection. A dump of any size is then shown whole, in memory bounded by its largest element, where reading it
/// whole stops at the value budget (a tree of a million values is about 150 MB).
///
/// What it reads is what ``DumpReader/readAll(bytes:format:)`` reads from the same bytes, element for element:
/// ``DumpReader/streamed(bytes:format:)`` gives one only when that is so.
package struct StreamedDump {
    /// The collection, without its elements: its kind (`collection`, or `dictionary` for a JSON object) and label.
    package let container: ValueNode
    /// The format the dump was read as.
    package let format: DumpFormat
    private var elements: any DumpElementReader

    /// The next element (an object's member labelled with its key), and whether it fit in a value budget of its own
    /// (when not, it ends in truncated values); nil after the last.
    package mutating func next() -> (node: ValueNode, isComplete: Bool)? { elements.next() }

    /// Steps over the next element without reading it (one a limit leaves out: only counted); false after the last.
    package mutating func skip() -> Bool { elements.skip() }

    fileprivate init(container: ValueNode, format: DumpFormat, elements: any DumpElementReader) {
        self.container = container
        self.format = format
        self.elements = elements
    }

    fileprivate static func json(_ reader: JSONValueParser.ElementReader) -> StreamedDump {
        StreamedDump(
            container: ValueNode(kind: reader.isObject ? .dictionary : .collection), format: .json,
            elements: reader)
    }

    fileprivate static func dump(_ reader: DumpParser.ElementReader) -> StreamedDump {
        StreamedDump(container: reader.container, format: .dump, elements: reader)
    }
}

extension DumpReader {
    /// `bytes` read an element at a time, when they hold one JSON array or object, or one `dump()` of a collection,
    /// and nothing else: no logger's framing or prefixes, no other value or line of text. Nil otherwise: read them
    /// with ``readAll(bytes:format:)``.
    package static func streamed(bytes: [UInt8], format: DumpFormat? = nil) -> StreamedDump? {
        guard format == nil || format == .json || format == .dump else { return nil }
        if format == nil, BinaryPropertyListParser.recognizes(bytes) { return nil }
        guard let start = bytes.firstIndex(where: { !TextCursor.isWhitespace($0) }) else { return nil }
        let first = bytes[start]
        guard first == UInt8(ascii: "[") || first == UInt8(ascii: "{") || first == 0xE2 else { return nil } // 0xE2: `▿`
        // Read whole, text that is not UTF-8 has U+FFFD for its bad bytes before any reader sees it (a bad byte after
        // a backslash then escapes another character); read as it is, it would not read alike.
        guard (try? UTF8Span(validating: bytes.span)) != nil else { return nil }
        guard LogFraming.of(bytes: bytes, reading: { linesReadAsValuesWithParts($0, format: format) }).isNone,
            !hasPrefixes(bytes)
        else { return nil }
        // What format detection reads of the trimmed text: the recognizers look at its first lines only.
        let leading = leadingText(bytes[start...], lines: 60).trimmed(where: \.isWhitespace)
        if first != 0xE2, format != .dump {
            if format == nil {
                guard !PropertyListXMLParser.recognizes(leading), !CFDescriptionParser.recognizes(leading),
                    !DumpParser.recognizes(leading), !LLDBVariableParser.recognizes(leading)
                else { return nil }
            }
            return JSONValueParser.ElementReader(bytes: bytes).map(StreamedDump.json)
        }
        if first == 0xE2, format != .json {
            if format == nil {
                guard DumpParser.recognizes(leading), !DumpParser.looksLikePO(leading) else { return nil }
            }
            return DumpParser.ElementReader(bytes: bytes).map(StreamedDump.dump)
        }
        return nil
    }

    /// Whether any line of `bytes` carries what ``stripPrefixes(_:)`` drops (a debugger's or logger's prefix, a name
    /// a value was logged under), looked at only on the lines that can carry one.
    private static func hasPrefixes(_ bytes: [UInt8]) -> Bool {
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let first = bytes[start]
            if first == UInt8(ascii: "(") || TextCursor.isDigit(first) || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A)
            {
                let line = Substring(String(decoding: bytes[start..<end], as: UTF8.self))
                if line.hasPrefix("(lldb) ") || line.hasPrefix("Printing description of ")
                    || loggedValueStart(in: line) != nil
                {
                    return true
                }
            }
            start = end + 1
        }
        return false
    }

    /// The first `lines` lines of `bytes` as text, each cut to its first `maximumLength` bytes as
    /// `String.leadingLines` cuts them: all that format detection looks at, without a copy of a line of megabytes.
    private static func leadingText(_ bytes: ArraySlice<UInt8>, lines: Int, maximumLength: Int = 4096) -> String {
        var text: [UInt8] = []
        var start = bytes.startIndex
        for _ in 0..<lines where start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
            var cut = min(end, start + maximumLength)
            if cut < end {
                // Back to the start of the character the cut falls in.
                while cut > start, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            }
            text += bytes[start..<cut]
            text.append(0x0A)
            start = end + 1
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Reads a collection's elements one at a time, from JSON text or from `dump()` text.
protocol DumpElementReader {
    /// The next element and whether it fit in a value budget of its own; nil after the last.
    mutating func next() -> (node: ValueNode, isComplete: Bool)?
    /// Steps over the next element without building it; false after the last.
    mutating func skip() -> Bool
}

extension JSONValueParser.ElementReader: DumpElementReader {}
extension DumpParser.ElementReader: DumpElementReader {}
