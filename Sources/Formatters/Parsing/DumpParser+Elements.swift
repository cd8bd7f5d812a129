import PostmortemCore

extension DumpParser {
    /// The elements of a `dump()` of a collection (`▿ 234077 elements`), read one at a time: a dump of any size is
    /// shown holding one element's tree at a time, not the whole.
    ///
    /// Only a dump that ``parse(_:dialect:budget:)`` would read as that collection and nothing else is taken: no
    /// carriage returns, every line after the first indented by spaces, every value line at least one level deep, no
    /// class identities (`Fixture.Node #0`: a reference to one needs the whole tree to be printed). Anything else
    /// gives no reader, and is read whole.
    struct ElementReader {
        private let bytes: [UInt8]
        /// Where the next element's first line starts.
        private var position: Int
        /// The collection, without its elements (its label kept).
        let container: ValueNode

        /// The reader of `bytes` when they hold such a dump, else nil.
        init?(bytes: [UInt8]) {
            guard ByteSearch.firstOffset(of: 0x0D, in: bytes, from: 0) == nil else { return nil }
            var position = 0
            while position < bytes.count, bytes[position] == 0x0A { position += 1 }
            let containerStart = position
            guard bytes[position...].starts(with: "▿ ".utf8) else { return nil }
            // The container's line, and the lines without a marker that continue it.
            position = Self.lineEnd(bytes, from: position)
            var firstElement: Int?
            while position < bytes.count {
                let lineStart = position
                position = Self.lineEnd(bytes, from: position)
                let line = lineStart..<(bytes[position - 1] == 0x0A ? position - 1 : position)
                guard !line.isEmpty else { continue }
                guard bytes[lineStart] == 0x20, !Self.endsWithIdentity(bytes, line) else { return nil }
                switch Self.markerDepth(bytes, line) {
                case .none: continue
                case .some(nil): return nil // a marker this byte scan cannot tell from other text
                case .some(let depth?):
                    guard depth >= 1 else { return nil }
                    if firstElement == nil { firstElement = lineStart }
                }
            }
            let containerEnd = firstElement ?? bytes.count
            var budget = ValueBudget()
            let lines = DumpParser.lines(in: bytes, containerStart..<containerEnd, dialect: .dump, budget: &budget)
            guard lines.count == 1, lines[0].hasChildren, lines[0].summary.first?.isNumber == true,
                lines[0].summary.hasSuffix(" elements") || lines[0].summary.hasSuffix(" element")
            else { return nil }
            self.bytes = bytes
            self.position = containerEnd
            container = ValueNode(kind: .collection, label: lines[0].label)
        }

        /// The next element, and whether it fit in a value budget of its own (when not, it ends in a truncated value);
        /// nil after the last.
        mutating func next() -> (node: ValueNode, isComplete: Bool)? {
            guard let element = nextElement() else { return nil }
            var budget = ValueBudget(ValueBudget.standard - 1)
            let lines = DumpParser.lines(in: bytes, element, dialect: .dump, budget: &budget)
            guard !lines.isEmpty else { return nil }
            var index = 0
            var node = DumpParser.node(lines, &index)
            node.label = nil
            return (node, !budget.isExhausted)
        }

        /// Steps over the next element without reading it (one a limit leaves out); false after the last.
        mutating func skip() -> Bool { nextElement() != nil }

        /// The bytes of the next element: its first line, and the lines after it that are deeper or continue a line.
        private mutating func nextElement() -> Range<Int>? {
            guard position < bytes.count else { return nil }
            let start = position
            // Every line was checked in `init`: a line is a value at some depth, or continues the one before.
            var topDepth: Int?
            while position < bytes.count {
                let lineStart = position
                let lineEnd = Self.lineEnd(bytes, from: position)
                let line = lineStart..<(bytes[lineEnd - 1] == 0x0A ? lineEnd - 1 : lineEnd)
                if !line.isEmpty, let depth = Self.markerDepth(bytes, line) ?? nil {
                    if let topDepth, depth <= topDepth { break }
                    if topDepth == nil { topDepth = depth }
                }
                position = lineEnd
            }
            return start..<position
        }

        /// Where the line at `start` ends, past its line feed.
        private static func lineEnd(_ bytes: [UInt8], from start: Int) -> Int {
            ByteSearch.firstOffset(of: 0x0A, in: bytes, from: start).map { $0 + 1 } ?? bytes.count
        }

        /// The depth of the value line `line` of `bytes` (`  ▿ `, `  - `, `  ▹ ` after two spaces a level), `.none`
        /// for a line that continues the one before, `.some(nil)` when a marker is followed by a non-ASCII byte (a
        /// combining mark would make it another character).
        private static func markerDepth(_ bytes: [UInt8], _ line: Range<Int>) -> Int?? {
            var body = line.lowerBound
            while body < line.upperBound, bytes[body] == 0x20 { body += 1 }
            guard body < line.upperBound else { return .none }
            let markerEnd: Int
            if bytes[body] == UInt8(ascii: "-") {
                markerEnd = body + 1
            } else if bytes[body] == 0xE2, body + 2 < line.upperBound, bytes[body + 1] == 0x96,
                bytes[body + 2] == 0xBF || bytes[body + 2] == 0xB9
            {
                markerEnd = body + 3
            } else {
                return .none
            }
            if markerEnd < line.upperBound, bytes[markerEnd] >= 0x80 { return .some(nil) }
            return .some(min((body - line.lowerBound) / 2, DumpParser.maximumDepth))
        }

        /// Whether `line` of `bytes` ends as a class instance's line does: ` #` and a number.
        private static func endsWithIdentity(_ bytes: [UInt8], _ line: Range<Int>) -> Bool {
            var hash = line.upperBound - 1
            while hash >= line.lowerBound, bytes[hash] != UInt8(ascii: "#") { hash -= 1 }
            guard hash > line.lowerBound, bytes[hash - 1] == 0x20 else { return false }
            var digits = hash + 1
            if digits < line.upperBound, bytes[digits] == UInt8(ascii: "+") || bytes[digits] == UInt8(ascii: "-") {
                digits += 1
            }
            guard digits < line.upperBound else { return false }
            for index in digits..<line.upperBound where !TextCursor.isDigit(bytes[index]) { return false }
            return true
        }
    }
}
