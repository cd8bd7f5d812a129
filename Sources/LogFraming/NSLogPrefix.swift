/// The prefix NSLog and os_log put before a message: `2024-05-01 10:00:00.123 App[42:7] ` (date, `T` or space,
/// time with optional fraction and zone, process name, `[pid]` or `[pid:thread]`, a space). Matched by hand, byte
/// by byte: it runs on every line of inputs of any size.
package enum NSLogPrefix {
    /// The prefix's length in UTF-8 bytes, or nil when the line has none.
    package static func length(in line: Substring) -> Int? {
        let bytes = line.utf8
        guard let first = bytes.first, (0x30...0x39).contains(first) else { return nil }
        var index = bytes.startIndex
        func digits(_ count: Int) -> Bool {
            for _ in 0..<count {
                guard index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) else { return false }
                bytes.formIndex(after: &index)
            }
            return true
        }
        func byte(_ allowed: String) -> Bool {
            guard index < bytes.endIndex, allowed.utf8.contains(bytes[index]) else { return false }
            bytes.formIndex(after: &index)
            return true
        }
        guard digits(4), byte("-"), digits(2), byte("-"), digits(2), byte(" T"), digits(2), byte(":"), digits(2),
            byte(":"), digits(2)
        else { return nil }
        if byte(".") { guard digits(1) else { return nil }; while digits(1) {} }
        if byte("+-") { guard digits(4) else { return nil } }
        guard byte(" ") else { return nil }
        // The process name runs to `[`; it has no spaces.
        let nameStart = index
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: "["), bytes[index] != 0x20 {
            bytes.formIndex(after: &index)
        }
        guard index > nameStart, byte("["), digits(1) else { return nil }
        while digits(1) {}
        if byte(":") {
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: "]"), bytes[index] != 0x20 {
                bytes.formIndex(after: &index)
            }
        }
        guard byte("]"), byte(" ") else { return nil }
        return bytes.distance(from: bytes.startIndex, to: index)
    }
}
