import LogFraming

/// Where a frame's rewritten lines are written: built as strings (to be coloured, or followed by a source excerpt),
/// or straight into the printed report's bytes, so that a log of thousands of frames builds no string per line.
/// Each frame's printer writes through it once, whichever it is.
protocol FrameLineSink {
    /// Starts the next line.
    mutating func startLine()
    /// Appends `text` to the current line.
    mutating func write(_ text: String)
    /// Appends `value` in decimal.
    mutating func write(decimal value: Int)
    /// Appends `value` in lower-case hexadecimal, without `0x`.
    mutating func write(hexadecimal value: UInt64)
}

/// Lines built as strings.
struct FrameLineStrings: FrameLineSink {
    private(set) var lines: [String] = []

    mutating func startLine() { lines.append("") }
    mutating func write(_ text: String) { lines[lines.count - 1] += text }
    mutating func write(decimal value: Int) { lines[lines.count - 1] += String(value) }
    mutating func write(hexadecimal value: UInt64) { lines[lines.count - 1] += String(value, radix: 16) }
}

/// Lines written into a printed report in place of one line of the log, as ``LogLine/appendRewritten(_:to:)`` writes
/// them: each after the line's prefix, the last ending as the line did. Only for a line that came in no JSON object
/// (whose copies of the object are the envelope's to write).
struct FrameLineBytes: FrameLineSink {
    /// The printed report so far; moved in and out (`swap`), never copied.
    var bytes: [UInt8] = []
    private let prefix: String
    private let separator: [UInt8]
    private let ending: [UInt8]
    private var lineCount = 0

    /// A sink for the lines written in `line`'s place; `nil` when the line came in a JSON object.
    init?(replacing line: LogLine) {
        guard line.envelope == nil else { return nil }
        prefix = line.prefix
        separator = line.separator
        ending = line.ending
    }

    mutating func startLine() {
        if lineCount > 0 { bytes += separator }
        lineCount += 1
        bytes += prefix.utf8
    }

    mutating func write(_ text: String) {
        // A native string's bytes are copied at once; `+= text.utf8` goes byte by byte.
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes += text.utf8 }
    }

    mutating func write(decimal value: Int) {
        guard value >= 0 else { return write(String(value)) }
        write(digitsOf: UInt64(value), radix: 10)
    }

    mutating func write(hexadecimal value: UInt64) { write(digitsOf: value, radix: 16) }

    /// Ends the last line as the replaced line ended.
    mutating func finish() {
        if lineCount > 0 { bytes += ending }
    }

    private mutating func write(digitsOf value: UInt64, radix: UInt64) {
        // Most significant digit first, so that nothing written is turned around (a slice's reverse copied).
        var divisor: UInt64 = 1
        while value / divisor >= radix { divisor *= radix }
        repeat {
            let digit = UInt8(value / divisor % radix)
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
            divisor /= radix
        } while divisor > 0
    }
}
