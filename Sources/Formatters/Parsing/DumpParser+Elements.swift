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
            guard !bytes.contains(0x0D) else { return nil }
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
                let line = bytes[lineStart..<(bytes[position - 1] == 0x0A ? position - 1 : position)]
                guard !line.isEmpty else { continue }
                guard line.first == 0x20, !Self.endsWithIdentity(line) else { return nil }
                switch Self.markerDepth(line) {
                case .none: continue
                case .some(nil): return nil // a marker this byte scan cannot tell from other text
                case .some(let depth?):
                    guard depth >= 1 else { return nil }
                    if firstElement == nil { firstElement = lineStart }
                }
            }
            let containerEnd = firstElement ?? bytes.count
            var budget = ValueBudget()
            let lines = DumpParser.lines(
                of: String(decoding: bytes[containerStart..<containerEnd], as: UTF8.self), dialect: .dump,
                budget: &budget)
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
            guard position < bytes.count else { return nil }
            let start = position
            // Every line was checked in `init`: a line is a value at some depth, or continues the one before.
            var topDepth: Int?
            while position < bytes.count {
                let lineStart = position
                let lineEnd = Self.lineEnd(bytes, from: position)
                let line = bytes[lineStart..<(bytes[lineEnd - 1] == 0x0A ? lineEnd - 1 : lineEnd)]
                if !line.isEmpty, let depth = Self.markerDepth(line) ?? nil {
                    if let topDepth, depth <= topDepth { break }
                    if topDepth == nil { topDepth = depth }
                }
                position = lineEnd
            }
            var budget = ValueBudget(ValueBudget.standard - 1)
            let lines = DumpParser.lines(
                of: String(decoding: bytes[start..<position], as: UTF8.self), dialect: .dump, budget: &budget)
            guard !lines.isEmpty else { return nil }
            var index = 0
            var node = DumpParser.node(lines, &index)
            node.label = nil
            return (node, !budget.isExhausted)
        }

        /// Where the line at `start` ends, past its line feed.
        private static func lineEnd(_ bytes: [UInt8], from start: Int) -> Int {
            ByteSearch.firstOffset(of: 0x0A, in: bytes, from: start).map { $0 + 1 } ?? bytes.count
        }

        /// The depth of a value line (`  ▿ `, `  - `, `  ▹ ` after two spaces a level), `.none` for a line that
        /// continues the one before, `.some(nil)` when a marker is followed by a non-ASCII byte (a combining mark
        /// would make it another character).
        private static func markerDepth(_ line: ArraySlice<UInt8>) -> Int?? {
            let indentation = line.prefix { $0 == 0x20 }.count
            let body = line.dropFirst(indentation)
            let markerLength: Int
            if body.first == UInt8(ascii: "-") {
                markerLength = 1
            } else if body.starts(with: "▿".utf8) || body.starts(with: "▹".utf8) {
                markerLength = 3
            } else {
                return .none
            }
            if let after = body.dropFirst(markerLength).first, after >= 0x80 { return .some(nil) }
            return .some(min(indentation / 2, DumpParser.maximumDepth))
        }

        /// Whether the line ends as a class instance's does: ` #` and a number.
        private static func endsWithIdentity(_ line: ArraySlice<UInt8>) -> Bool {
            guard let hash = line.lastIndex(of: UInt8(ascii: "#")), hash > line.startIndex,
                line[hash - 1] == 0x20
            else { return false }
            var digits = line[(hash + 1)...]
            if digits.first == UInt8(ascii: "+") || digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
            return !digits.isEmpty && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        }
    }
}
