/// What loggers put before a logged value, besides NSLog's (``LogPrefix``): swift-log's default
/// `2026-11-25T10:00:01+0000 info label : [meta] `, an ISO-8601 timestamp with a level (`2026-11-25 10:00:01.123 [ERROR] `,
/// `2026-11-25T10:00:01Z error `), syslog's `Nov 25 10:00:01 host app[123]: `; then the name a value was logged under
/// (`user = `, `user: `). Matched by hand, byte by byte, like ``LogPrefix``.
enum LoggerPrefix {
    static let levels: Set<String> = [
        "trace", "debug", "info", "notice", "warning", "warn", "error", "critical", "fatal", "default"
    ]

    /// The length in UTF-8 bytes of the prefix and assignment before the value on `line`, or nil when it has neither a
    /// logger's prefix nor an assignment.
    static func length(in line: Substring) -> Int? {
        let bytes = Array(line.utf8)
        var index = timestampPrefix(bytes) ?? syslogPrefix(bytes) ?? 0
        let prefixed = index > 0
        if let assignment = assignment(bytes, from: index) { index = assignment }
        return index > 0 && (prefixed || index < bytes.count) ? index : nil
    }

    /// `2026-11-25T10:00:01[.fff][Z|±hhmm|±hh:mm] `, then a level (bare or in brackets), then swift-log's `label : ` and
    /// `[metadata] `.
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
        guard levels.contains(word), !bracketed || byte("]"), byte(" ") else { return levelStart }
        // swift-log: `label : ` and `[metadata] `.
        let afterLevel = index
        while index < bytes.count, bytes[index] != 0x20 { index += 1 }
        guard index > afterLevel, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: ":"),
            bytes[index + 2] == 0x20
        else { return afterLevel }
        index += 3
        if index < bytes.count, bytes[index] == UInt8(ascii: "["),
            let close = bytes[index...].firstIndex(of: UInt8(ascii: "]")),
            close + 1 < bytes.count, bytes[close + 1] == 0x20
        {
            index = close + 2
        }
        return index
    }

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
        if index < bytes.count, bytes[index - 1] == UInt8(ascii: "]") || bytes[index] == UInt8(ascii: ":") {}
        guard index > tagStart, index + 1 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == 0x20
        else { return nil }
        return index + 2
    }

    /// `name = ` or `name: ` (a Swift identifier, dotted) before a value that follows on the same line.
    private static func assignment(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        guard index < bytes.count, isLetter(bytes[index]) || bytes[index] == UInt8(ascii: "_") else { return nil }
        while index < bytes.count,
            isLetter(bytes[index]) || isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_")
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

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    private static func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
    private static func isLetter(_ byte: UInt8) -> Bool { isUpper(byte) || isLower(byte) }
}
