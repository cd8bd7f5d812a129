import PostmortemCore

/// Finds a log written as JSON lines — one object a line, each line of output in one of its string fields, as docker's
/// json-file driver (`"log"`), `journalctl -o json` (`"MESSAGE"`) and log shippers' exports (`"message"`, `"msg"`)
/// write them — and opens each such line to the message it carries (``LogLine/envelope``), so that the log parses as
/// the log it carries and prints back as the objects it came in.
package enum JSONLogLines {
    /// The fields loggers put a line of output in, in the order one is chosen when a log's objects have several.
    package static let messageKeys = ["log", "MESSAGE", "message", "msg", "textPayload", "@message", "body", "line"]
    /// The longest line read as a logger's object (docker splits output at 16 KiB, journald keeps 48 KiB a message).
    static let maximumObjectLength = 1 << 20

    /// The field of the log's objects that holds its messages: the first of ``messageKeys`` that at least
    /// ``LinePrefixes/minimumCoverage`` of the non-empty lines of `sample` hold as a string; `nil` when fewer of them are
    /// objects with such a field.
    package static func messageKey(in sample: ArraySlice<LogLine>) -> String? {
        // Most logs are not JSON lines: a look at first bytes rules them out before any parsing (and any copy).
        var nonEmpty = 0, objects = 0
        // By index: a line is read in place, not copied out (every line of the sample of every log comes here).
        for index in sample.indices where !sample[index].isTextEmpty {
            nonEmpty += 1
            // A logger's object is a line of output and a few fields; a longer one is a document of its own (a JSON
            // value given to `po`), never parsed here.
            if sample[index].firstByte == UInt8(ascii: "{"), sample[index].textByteCount <= maximumObjectLength {
                objects += 1
            }
        }
        let needed = Int((Double(nonEmpty) * LinePrefixes.minimumCoverage).rounded(.up))
        guard nonEmpty > 0, objects >= needed else { return nil }
        var counts = [Int](repeating: 0, count: messageKeys.count)
        for line in sample where line.textByteCount <= maximumObjectLength {
            guard let (_, members) = object(of: line) else { continue }
            for (index, key) in messageKeys.enumerated()
            where members.contains(where: { $0.key == key && $0.value.string != nil }) {
                counts[index] += 1
            }
        }
        return counts.indices.first(where: { counts[$0] >= needed }).map { messageKeys[$0] }
    }

    /// `lines` with every object that holds the field `key` opened to it (a message of several lines to a line for
    /// each). A line that is no such object stays as it was.
    package static func opened<Lines: Collection<LogLine>>(_ lines: Lines, key: String) -> [LogLine] {
        lines.flatMap { open($0, key: key) ?? [$0] }
    }

    /// `lines` opened to their messages (``messageKey(in:)`` of the first ``LinePrefixes/sampleSize``, then
    /// ``opened(_:key:)``); `nil` when they are no JSON lines.
    package static func opened(_ lines: [LogLine]) -> [LogLine]? {
        messageKey(in: lines.prefix(LinePrefixes.sampleSize)).map { opened(lines, key: $0) }
    }

    /// The bytes of `line` and the members of the object it is, or `nil` when it is none.
    private static func object(of line: LogLine) -> (bytes: [UInt8], members: [(key: String, value: JSONNode)])? {
        guard line.firstByte == UInt8(ascii: "{") else { return nil }
        let bytes = Array(line.text.utf8)
        guard let node = try? JSONParser.parse(bytes, range: 0..<bytes.count),
            case .object(let members) = node.value
        else { return nil }
        return (bytes, members)
    }

    /// `line` opened to the string of its field `key`, less the line ending a logger keeps at the end of it (docker's
    /// `\n`): one line for each line of the message. `nil` when it has no such field, or when its line breaks are not
    /// all written `\n` (the parts' bytes could not be told apart).
    package static func open(_ line: LogLine, key: String) -> [LogLine]? {
        guard let (bytes, members) = object(of: line),
            let field = members.first(where: { $0.key == key })?.value, var message = field.string
        else { return nil }
        let opening = field.span.lowerBound, closing = field.span.upperBound - 1
        var messageEnd = closing
        // Scalars, not characters: `\r\n` is one character.
        for ending: Unicode.Scalar in ["\n", "\r"]
        where message.unicodeScalars.last == ending && endsWithEscape(bytes[(opening + 1)..<messageEnd]) {
            message.unicodeScalars.removeLast()
            messageEnd -= 2
        }
        // Split by scalars (`\r\n` is one character); a part's `\r` stays in its bytes, not in its text.
        let texts = message.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { part in
            String(String.UnicodeScalarView(part.last == "\r" ? part.dropLast() : part))
        }
        let escapedParts = lineBreakEscapes(in: bytes, from: opening + 1, to: messageEnd)
        guard escapedParts.count == texts.count else { return nil }
        let head = String(decoding: bytes[...opening], as: UTF8.self),
            tail = String(decoding: bytes[messageEnd...], as: UTF8.self)
        return zip(texts, escapedParts).enumerated().map { index, part in
            let isLast = index == texts.count - 1
            // A part's line ending is the original line's for the last part; a line break inside the message for the others.
            var opened = isLast ? line : LogLine(bytes: Array(part.0.utf8) + [UInt8(ascii: "\n")])
            let envelope = JSONEnvelope(
                head: head, escapedMessage: String(decoding: bytes[part.1], as: UTF8.self), tail: tail,
                isFirstPart: index == 0, isLastPart: isLast)
            opened.open(envelope, message: part.0)
            return opened
        }
    }

    /// The stretches of `bytes[start..<end]` (a JSON string's inside) between its `\n` escapes.
    private static func lineBreakEscapes(in bytes: [UInt8], from start: Int, to end: Int) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var partStart = start, position = start
        while position < end {
            guard bytes[position] == UInt8(ascii: "\\") else { position += 1; continue }
            if position + 1 < end, bytes[position + 1] == UInt8(ascii: "n") {
                parts.append(partStart..<position)
                partStart = position + 2
            }
            position += 2
        }
        parts.append(partStart..<end)
        return parts
    }

    /// Whether `escaped` (a JSON string's inside) ends with a two-byte escape (`\n`, `\r`): a backslash and a letter
    /// after an even run of backslashes.
    private static func endsWithEscape(_ escaped: ArraySlice<UInt8>) -> Bool {
        guard escaped.count >= 2, escaped.last != UInt8(ascii: "\\") else { return false }
        let backslashes = escaped.dropLast().reversed().prefix { $0 == UInt8(ascii: "\\") }.count
        return backslashes % 2 == 1
    }
}
