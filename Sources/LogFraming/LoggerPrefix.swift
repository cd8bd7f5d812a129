/// What loggers put before a logged line, besides NSLog's (``NSLogPrefix``): swift-log's default
/// `2026-11-25T10:00:01+0000 info label: key=value [Module] `, an ISO-8601 timestamp with a level (`2026-11-25 10:00:01.123 [ERROR] `,
/// `2026-11-25T10:00:01Z error `), syslog's `Nov 25 10:00:01 host app[123]: `. Matched by hand, byte by byte, like
/// ``NSLogPrefix``. Unlike ``LinePrefixes``, a known prefix is found on a line of its own: a logged value of several
/// lines has it on its first line only.
package enum LoggerPrefix {
    static let levels: Set<String> = [
        "trace", "debug", "info", "notice", "warning", "warn", "error", "critical", "fatal", "default"
    ]

    /// The length in UTF-8 bytes of the logger's prefix on `line`, or nil when it has none.
    package static func length(in line: Substring) -> Int? {
        let bytes = Array(line.utf8)
        return timestampPrefix(bytes) ?? syslogPrefix(bytes)
    }

    /// `2026-11-25T10:00:01[.fff][Z|±hhmm|±hh:mm] `, then a level (bare or in brackets), then what swift-log writes
    /// after it (``swiftLogRest(_:from:)``).
    private static func timestampPrefix(_ bytes: [UInt8]) -> Int? {
        var index = 0
        func digits(_ count: Int) -> Bool {
            for _ in 0..<count {
                guard index < bytes.count, isDigit(bytes[index]) else { return false }
                index += 1
            }
            return true
        }
        func byte(_ allowed: String) -> Bool {
            guard index < bytes.count, allowed.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard digits(4), byte("-"), digits(2), byte("-"), digits(2), byte("T "), digits(2), byte(":"), digits(2),
            byte(":"), digits(2)
        else {
            return nil
        }
        if byte(".,") { guard digits(1) else { return nil }; while digits(1) {} }
        if byte("Z") {
        } else if byte("+-") {
            guard digits(2) else { return nil }; _ = byte(":"); guard digits(2) else { return nil }
        }
        guard byte(" ") else { return nil }
        // The level, bare (`info `) or in brackets (`[ERROR] `).
        let levelStart = index
        let bracketed = byte("[")
        let wordStart = index
        while index < bytes.count, isLetter(bytes[index]) { index += 1 }
        let word = String(decoding: bytes[wordStart..<index], as: UTF8.self).lowercased()
        guard levels.contains(word), !bracketed || byte("]") else { return levelStart }
        if !bracketed, index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            return swiftLogMetadataAndSource(bytes, colon: index) ?? levelStart
        }
        guard byte(" ") else { return levelStart }
        return swiftLogRest(bytes, from: index) ?? index
    }

    /// What swift-log's `StreamLogHandler` writes after the level: `label: ` (`label : ` before 1.10; nothing when the
    /// label is empty, `info: `), its metadata sorted as `key=value` pairs (values may hold spaces and brackets), and
    /// `[source] `, the module that logged. Nil when `bytes` does not continue so at `start`, just after the level.
    private static func swiftLogRest(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count, bytes[index] != 0x20, bytes[index] != UInt8(ascii: ":") { index += 1 }
        guard index > start else { return nil }
        if index < bytes.count, bytes[index] == 0x20 { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        return swiftLogMetadataAndSource(bytes, colon: index)
    }

    /// The end of swift-log's ` key=value … [source] ` after the label's colon at `colon`: the metadata ends at the
    /// first ` [source] ` (a module's name; any word in brackets, as other handlers put theirs there); with no source,
    /// the colon's end.
    private static func swiftLogMetadataAndSource(_ bytes: [UInt8], colon: Int) -> Int? {
        var cursor = colon + 1
        var inString = false
        while cursor + 2 < bytes.count {
            // A bracketed word inside quotes is a string's (in metadata, `ids=["1", "2"]`, or a logged value's).
            if bytes[cursor] == UInt8(ascii: "\"") {
                inString.toggle()
            } else if inString, bytes[cursor] == UInt8(ascii: "\\") {
                cursor += 1
            } else if !inString, bytes[cursor] == 0x20, bytes[cursor + 1] == UInt8(ascii: "[") {
                var end = cursor + 2
                while end < bytes.count, isSourceByte(bytes[end]) { end += 1 }
                if end > cursor + 2, end + 1 < bytes.count, bytes[end] == UInt8(ascii: "]"), bytes[end + 1] == 0x20 {
                    return end + 2
                }
            }
            cursor += 1
        }
        // No source: a handler of swift-log's older shape, or another's; the message follows the label.
        return colon + 1 < bytes.count && bytes[colon + 1] == 0x20 ? colon + 2 : nil
    }

    private static func isSourceByte(_ byte: UInt8) -> Bool { byte != 0x20 && byte != UInt8(ascii: "]") }

    /// `Nov 25 10:00:01 host app[123]: ` (the month's name, the day, the time, a host, a tag ending in `:`).
    private static func syslogPrefix(_ bytes: [UInt8]) -> Int? {
        guard bytes.count > 16, isUpper(bytes[0]), isLower(bytes[1]), isLower(bytes[2]), bytes[3] == 0x20,
            bytes[4] == 0x20 || isDigit(bytes[4]), isDigit(bytes[5]), bytes[6] == 0x20,
            isDigit(bytes[7]), isDigit(bytes[8]), bytes[9] == UInt8(ascii: ":"), isDigit(bytes[10]), isDigit(bytes[11]),
            bytes[12] == UInt8(ascii: ":"), isDigit(bytes[13]), isDigit(bytes[14]), bytes[15] == 0x20
        else { return nil }
        var index = 16
        while index < bytes.count, bytes[index] != 0x20 { index += 1 } // host
        index += 1
        let tagStart = index
        while index < bytes.count, bytes[index] != 0x20, bytes[index] != UInt8(ascii: ":") { index += 1 }
        guard index > tagStart, index + 1 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == 0x20
        else { return nil }
        return index + 2
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    private static func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
    private static func isLetter(_ byte: UInt8) -> Bool { isUpper(byte) || isLower(byte) }
}
