extension JSONValueParser {
    /// The elements of a JSON array, or the members of an object, read one at a time: a document of any size is shown
    /// holding one element's tree at a time, not the whole (a tree costs about 150 bytes a value).
    ///
    /// The whole text is checked first, building nothing: output may not start for a text that turns out not to be
    /// JSON, which the reader would then read in another format.
    struct ElementReader {
        private var parser: JSONValueParser
        /// Whether the document is an object, whose members carry their keys as labels.
        let isObject: Bool
        private var isFinished = false

        /// The reader of `bytes` when they hold exactly one array or object (with whitespace around it), else nil.
        init?(bytes: [UInt8]) {
            let first: UInt8
            do {
                let text = bytes.span
                var position = 0
                JSONValueParser.skipWhitespace(text, &position)
                guard position < text.count, text[position] == UInt8(ascii: "[") || text[position] == UInt8(ascii: "{")
                else { return nil }
                first = text[position]
                // A line feed inside a string is a line of its own to the reader that cuts a text of values at
                // the line where brackets close: it may read such a text as several values.
                do { try JSONValueParser.skipValue(text, &position, depth: 0, lineFeedsInStrings: false) } catch {
                    return nil
                }
                JSONValueParser.skipWhitespace(text, &position)
                guard position == text.count else { return nil }
            }
            parser = JSONValueParser(bytes: bytes, budget: ValueBudget())
            parser.skip()
            isObject = first == UInt8(ascii: "{")
            parser.cursor.position += 1
            parser.skip()
            if parser.cursor.current == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) { isFinished = true }
        }

        /// The next element (an object's member labelled with its key), and whether it fit in a value budget of its
        /// own (when not, it ends in truncated values); nil after the last.
        mutating func next() -> (node: ValueNode, isComplete: Bool)? {
            guard !isFinished else { return nil }
            // The text was checked whole: reading it again cannot fail.
            let element = try? readElement()
            stepPastComma()
            return element
        }

        /// Steps over the next element without building it (one a limit leaves out); false after the last.
        mutating func skip() -> Bool {
            guard !isFinished else { return false }
            var position = parser.cursor.position
            let bytes = parser.cursor.bytes
            do {
                let text = bytes.span
                if isObject {
                    try? JSONValueParser.skipString(text, &position)
                    JSONValueParser.skipWhitespace(text, &position)
                    position += 1 // the `:`
                    JSONValueParser.skipWhitespace(text, &position)
                }
                try? JSONValueParser.skipValue(text, &position, depth: 1)
            }
            parser.cursor.position = position
            stepPastComma()
            return true
        }

        /// After an element: past the comma to the next one, or finished at the closing bracket.
        private mutating func stepPastComma() {
            parser.skip()
            if parser.cursor.current == UInt8(ascii: ",") {
                parser.cursor.position += 1
                parser.skip()
            } else {
                isFinished = true
            }
        }

        private mutating func readElement() throws(Failure) -> (node: ValueNode, isComplete: Bool) {
            var key: String?
            if isObject {
                key = try parser.string()
                parser.skip()
                parser.cursor.position += 1 // the `:`
                parser.skip()
            }
            let start = parser.cursor.position
            // The whole document's root took one value of the budget; each element starts afresh.
            parser.budget = ValueBudget(ValueBudget.standard - 1)
            var node = try parser.value(depth: 1)
            let isComplete = !parser.budget.isExhausted
            if !isComplete {
                // Reading stopped inside the element: its end is found by stepping over it.
                var position = start
                try JSONValueParser.skipValue(parser.cursor.bytes.span, &position, depth: 1)
                parser.cursor.position = position
            }
            node.label = key
            return (node, isComplete)
        }
    }

    /// Steps over the value at `position` in `text`, building nothing, failing where ``value(depth:)`` fails.
    static func skipValue(
        _ text: Span<UInt8>, _ position: inout Int, depth: Int, lineFeedsInStrings: Bool = true
    ) throws(Failure) {
        guard depth < Self.maximumDepth else {
            throw Failure(offset: position, reason: "nesting deeper than \(Self.maximumDepth)")
        }
        guard position < text.count else { throw Failure(offset: position, reason: "the text ends early") }
        let byte = text[position]
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = byte == UInt8(ascii: "{")
            let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            position += 1
            skipWhitespace(text, &position)
            if position < text.count, text[position] == closing {
                position += 1
                return
            }
            while true {
                skipWhitespace(text, &position)
                if isObject {
                    guard position < text.count, text[position] == UInt8(ascii: "\"") else {
                        throw Failure(offset: position, reason: "expected a key")
                    }
                    try skipString(text, &position, lineFeeds: lineFeedsInStrings)
                    skipWhitespace(text, &position)
                    guard position < text.count, text[position] == UInt8(ascii: ":") else {
                        throw Failure(offset: position, reason: "expected ':'")
                    }
                    position += 1
                    skipWhitespace(text, &position)
                }
                try skipValue(text, &position, depth: depth + 1, lineFeedsInStrings: lineFeedsInStrings)
                skipWhitespace(text, &position)
                guard position < text.count else {
                    throw Failure(offset: position, reason: "the text ends inside an array or object")
                }
                if text[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard text[position] == closing else {
                    throw Failure(offset: position, reason: "expected ',' or a bracket")
                }
                position += 1
                return
            }
        case UInt8(ascii: "\""): try skipString(text, &position, lineFeeds: lineFeedsInStrings)
        case UInt8(ascii: "t"): try skipLiteral("true", text, &position)
        case UInt8(ascii: "f"): try skipLiteral("false", text, &position)
        case UInt8(ascii: "n"): try skipLiteral("null", text, &position)
        default:
            let start = position
            while position < text.count, isNumberByte(text[position]) { position += 1 }
            guard PlainJSONRenderer.isJSONNumber(text, start..<position) else {
                throw Failure(offset: start, reason: "unexpected character")
            }
        }
    }

    /// Steps over spaces, tabs, carriage returns and line feeds.
    static func skipWhitespace(_ text: Span<UInt8>, _ position: inout Int) {
        while position < text.count, TextCursor.isWhitespace(text[position]) { position += 1 }
    }

    private static func skipLiteral(_ word: StaticString, _ text: Span<UInt8>, _ position: inout Int) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard position + count <= text.count else { throw Failure(offset: position, reason: "unexpected character") }
        for index in 0..<count where text[position + index] != word.utf8Start[index] {
            throw Failure(offset: position, reason: "unexpected character")
        }
        position += count
    }

    /// Steps over a string, failing where ``string()`` fails (an unfinished string, a bad `\u` escape), and at a
    /// line feed in it unless `lineFeeds`.
    static func skipString(_ text: Span<UInt8>, _ position: inout Int, lineFeeds: Bool = true) throws(Failure) {
        position += 1
        while position < text.count {
            let byte = text[position]
            if byte == 0x0A, !lineFeeds { throw Failure(offset: position, reason: "a line feed inside a string") }
            if byte == UInt8(ascii: "\"") {
                position += 1
                return
            }
            guard byte == UInt8(ascii: "\\") else {
                position += 1
                continue
            }
            guard position + 1 < text.count else { break }
            position += 2
            if text[position - 1] == UInt8(ascii: "u") {
                guard position + 4 <= text.count, isHexEscape(text, position) else {
                    throw Failure(offset: position, reason: "a bad \\u escape")
                }
                position += 4
            }
        }
        throw Failure(offset: position, reason: "the text ends inside a string")
    }

    /// Whether the four bytes at `position` read as ``string()`` reads a `\u` escape's (`UInt32(_:radix:)`, which
    /// takes a sign too).
    private static func isHexEscape(_ text: Span<UInt8>, _ position: Int) -> Bool {
        var digits: [UInt8] = []
        for index in position..<position + 4 { digits.append(text[index]) }
        return UInt32(String(decoding: digits, as: UTF8.self), radix: 16) != nil
    }
}
