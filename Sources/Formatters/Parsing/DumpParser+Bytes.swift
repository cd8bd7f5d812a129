extension DumpParser {
    /// ``lines(of:dialect:budget:)`` of the UTF-8 text in `range` of `bytes`, which holds no carriage return: each
    /// line's marker, label and summary found by its bytes where ASCII makes bytes and `Character`s split alike
    /// (every line of a dump of megabytes comes here), by its `Character`s elsewhere.
    static func lines(in bytes: [UInt8], _ range: Range<Int>, dialect: Dialect, budget: inout ValueBudget) -> [Line] {
        var lines: [Line] = []
        var start = range.lowerBound
        while start < range.upperBound {
            var end = start
            while end < range.upperBound, bytes[end] != 0x0A { end += 1 }
            let line = start..<end
            start = end + 1
            if line.isEmpty { continue }
            var indentation = 0
            while line.lowerBound + indentation < end, bytes[line.lowerBound + indentation] == 0x20 { indentation += 1 }
            var start = markedValue(bytes, line, indentation: indentation)
            var byCharacters: (marker: Character, body: Substring)?
            if case .byCharacters = start {
                byCharacters = markedValue(
                    Substring(String(decoding: bytes[line], as: UTF8.self)), indentation: indentation)
                if byCharacters == nil { start = .unmarked }
            }
            let label: String?, summary: String, hasChildren: Bool
            switch start {
            case .unmarked:
                let raw = String(decoding: bytes[line], as: UTF8.self)
                if lines.isEmpty, indentation == 0, dialect == .po {
                    // `po` of an empty collection: its summary alone, without a marker.
                    lines.append(Line(depth: 0, hasChildren: false, label: nil, summary: raw))
                } else if var last = lines.popLast() {
                    // A line without a marker continues the previous one (a multi-line string).
                    last.summary += "\n" + raw
                    lines.append(last)
                }
                continue
            case .marked(let marker, let body):
                guard budget.spend() else { return lines + [truncation(after: lines)] }
                hasChildren = marker != UInt8(ascii: "-")
                (label, summary) = split(bytes, body..<line.upperBound, dialect: dialect)
            case .byCharacters:
                guard budget.spend() else { return lines + [truncation(after: lines)] }
                let (marker, body) = byCharacters!
                hasChildren = marker != "-"
                (label, summary) = split(body, separator: dialect == .po ? " : " : ": ")
            }
            lines.append(
                Line(
                    depth: min(indentation / 2, maximumDepth), hasChildren: hasChildren, label: label,
                    summary: summary))
        }
        return lines
    }

    private static func truncation(after lines: [Line]) -> Line {
        Line(depth: lines.last?.depth ?? 0, hasChildren: false, label: nil, summary: "", isTruncation: true)
    }

    /// What starts a line after its indentation, read from its bytes.
    private enum LineStart {
        /// No marker: the line continues the one before.
        case unmarked
        /// A marker (its first byte), and where the text after it and its spaces starts.
        case marked(UInt8, body: Int)
        /// Non-ASCII next to the marker or its spaces: only `Character`s can tell (a combining mark joins the
        /// character before it).
        case byCharacters
    }

    private static func markedValue(_ bytes: [UInt8], _ line: Range<Int>, indentation: Int) -> LineStart {
        let start = line.lowerBound + indentation
        guard start < line.upperBound else { return .unmarked }
        let first = bytes[start]
        var markerEnd = start + 1
        if first == 0xE2, start + 2 < line.upperBound, bytes[start + 1] == 0x96,
            bytes[start + 2] == 0xBF || bytes[start + 2] == 0xB9
        {
            markerEnd = start + 3
        } else if first != UInt8(ascii: "-") {
            return first < 0x80 ? .unmarked : .byCharacters
        }
        guard markerEnd == line.upperBound || bytes[markerEnd] < 0x80 else { return .byCharacters }
        var body = markerEnd
        while body < line.upperBound, bytes[body] == 0x20 { body += 1 }
        guard body == line.upperBound || bytes[body] < 0x80 else { return .byCharacters }
        return .marked(first, body: body)
    }

    /// ``split(_:separator:)-(Substring,_)`` of the bytes of `body`.
    private static func split(_ bytes: [UInt8], _ body: Range<Int>, dialect: Dialect) -> (String?, String) {
        // `: ` after the label, or ` : ` in lldb's `po`.
        let spaced = dialect == .po
        let length = spaced ? 3 : 2
        var colon = body.lowerBound
        while colon + length <= body.upperBound {
            if spaced {
                if bytes[colon] == 0x20, bytes[colon + 1] == 0x3A, bytes[colon + 2] == 0x20 { break }
            } else if bytes[colon] == 0x3A, bytes[colon + 1] == 0x20 {
                break
            }
            colon += 1
        }
        let label = bytes[body.lowerBound..<colon]
        guard colon + length <= body.upperBound,
            isASCIILabel(label) ?? isLabel(Substring(String(decoding: label, as: UTF8.self)))
        else { return (nil, String(decoding: bytes[body], as: UTF8.self)) }
        return (
            String(decoding: label, as: UTF8.self),
            String(decoding: bytes[(colon + length)..<body.upperBound], as: UTF8.self)
        )
    }
}
