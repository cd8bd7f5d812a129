import PostmortemCore

/// One line of a log: its text for parsing, and its bytes exactly as read (line ending included).
///
/// A line keeps its text only, and gives its bytes back from it; the bytes themselves are kept only for a line that
/// is not valid UTF-8 (whose text has U+FFFD in their place). A log is held once, not twice, while it is parsed.
public struct LogLine: Hashable, Sendable {
    /// How a line ends.
    private enum Terminator: UInt8, Hashable, Sendable {
        case none, lineFeed, carriageReturnLineFeed
        /// A last line that ends in `\r` without `\n`: the `\r` is not part of the text.
        case carriageReturn

        var bytes: [UInt8] {
            switch self {
            case .none: []
            case .lineFeed: [10]
            case .carriageReturnLineFeed: [13, 10]
            case .carriageReturn: [13]
            }
        }
    }

    /// The text without the line ending and without ``prefix``; invalid UTF-8 reads as U+FFFD here, never in ``bytes``.
    public private(set) var text: String
    /// What a logger put before the line (`2026-11-25T10:00:01.123Z `, `[pod/app-7d9f/app] `), taken off ``text`` so
    /// that the line parses as the log it carries, and put back when the log is printed (``appendWhole(to:)``).
    public var prefix: String { rare?.parts.prefix ?? "" }
    /// Whether a logger's ``prefix`` was taken off the line, without making the string.
    package var hasPrefix: Bool { rare.map { !$0.parts.prefix.isEmpty } ?? false }
    private var terminator: Terminator
    /// The first byte of ``text`` (0 when it is empty), and its last byte that is not a space or a tab (0 when there
    /// is none): what readers test every line of every log by before reading it (a frame's `]`, a header's first
    /// letter), kept so that the test costs no look at the text.
    package private(set) var firstByte: UInt8
    package private(set) var lastNonBlankByte: UInt8
    /// The bytes of a line that is not valid UTF-8; nil for every other line.
    private var undecodableBytes: [UInt8]? { rare?.parts.undecodableBytes }
    /// The JSON object a JSON-lines logger wrote the line as, when it did (``JSONEnvelope``); ``text`` is then the
    /// message it carries.
    package var envelope: JSONEnvelope? { rare?.parts.envelope }

    /// What few lines have: a logger's prefix, bytes that are not UTF-8, a JSON envelope.
    private struct RareParts: Hashable, Sendable {
        var prefix = ""
        var undecodableBytes: [UInt8]?
        var envelope: JSONEnvelope?
    }
    /// One word, nil in most lines of most logs: a line is copied several times on its way through a parser, and each
    /// copy retains and releases every reference the line holds.
    private indirect enum RareBox: Hashable, Sendable {
        case parts(RareParts)

        var parts: RareParts {
            switch self {
            case .parts(let parts): parts
            }
        }
    }
    private var rare: RareBox?

    private var rareParts: RareParts {
        get { rare?.parts ?? RareParts() }
        set { rare = .parts(newValue) }
    }

    /// The line whose bytes (its terminator included, if any) are `bytes`.
    package init(bytes: [UInt8]) {
        self.init(bytes[...])
    }

    init(_ bytes: ArraySlice<UInt8>) {
        var end = bytes.endIndex
        var terminator = Terminator.none
        if end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: "\n") {
            end -= 1
            terminator = .lineFeed
        }
        if end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: "\r") {
            end -= 1
            terminator = terminator == .lineFeed ? .carriageReturnLineFeed : .carriageReturn
        }
        let content = bytes[bytes.startIndex..<end]
        // Each stored property set once, from locals: a line is made for every line of every log, and assigning
        // `self`'s properties along the way made the compiler copy the whole line out again.
        let text: String
        var ends: (first: UInt8, lastNonBlank: UInt8)
        var rare: RareBox? = nil
        // ASCII, most lines of most logs, needs no validation (and String(validating:) is the slower path).
        if Self.isASCII(content.span) {
            text = String(decoding: content, as: UTF8.self)
            ends = Self.ends(of: content.span)
        } else if let valid = String(validating: content, as: UTF8.self) {
            text = valid
            ends = Self.ends(of: content.span)
        } else {
            text = String(decoding: content, as: UTF8.self)
            ends = Self.ends(of: text)
            rare = .parts(RareParts(undecodableBytes: Array(bytes)))
        }
        self.text = text
        self.terminator = terminator
        self.firstByte = ends.first
        self.lastNonBlankByte = ends.lastNonBlank
        self.rare = rare
    }

    private static func isASCII(_ bytes: Span<UInt8>) -> Bool {
        var union: UInt8 = 0
        for index in bytes.indices { union |= bytes[index] }
        return union < 0x80
    }

    /// The first byte of `text` and its last that is not a blank.
    private static func ends(of text: String) -> (first: UInt8, lastNonBlank: UInt8) {
        ends(of: text.utf8.span)
    }

    private static func ends(of bytes: Span<UInt8>) -> (first: UInt8, lastNonBlank: UInt8) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        return (bytes.isEmpty ? 0 : bytes[0], end == 0 ? 0 : bytes[end - 1])
    }

    /// Moves the first `count` bytes of ``text`` (a whole number of characters) into ``prefix``. A line that is not
    /// valid UTF-8 keeps its bytes whole.
    package mutating func movePrefix(byteCount count: Int) {
        guard undecodableBytes == nil, count > 0, count <= text.utf8.count else { return }
        let utf8 = text.utf8
        let split = utf8.index(utf8.startIndex, offsetBy: count)
        rareParts.prefix = String(Substring(utf8[..<split]))
        text = String(Substring(utf8[split...]))
        (firstByte, lastNonBlankByte) = Self.ends(of: text)
    }

    /// Takes the line as the JSON object `envelope` describes: its text becomes the message the object carries.
    mutating func open(_ envelope: JSONEnvelope, message: String) {
        guard undecodableBytes == nil, prefix.isEmpty else { return }
        rareParts.envelope = envelope
        text = message
        (firstByte, lastNonBlankByte) = Self.ends(of: text)
    }

    /// The line exactly as read: ``prefix`` and the line as ``append(to:)`` gives it, or its part of the JSON object
    /// it came in.
    package func appendWhole(to output: inout [UInt8]) {
        if let envelope {
            if envelope.isFirstPart { output += envelope.head.utf8 }
            output += envelope.escapedMessage.utf8
            if envelope.isLastPart {
                output += envelope.tail.utf8
                output += terminator.bytes
            } else {
                output += JSONEnvelope.escapedLineBreak
            }
            return
        }
        if !prefix.isEmpty { Self.appendBytes(of: prefix, to: &output) }
        append(to: &output)
    }

    /// Appends `string`'s bytes: a native string's at once, where `+= string.utf8` goes through the view's generic
    /// path (every line a log prints back unchanged comes here).
    private static func appendBytes(of string: String, to output: inout [UInt8]) {
        if string.utf8.withContiguousStorageIfAvailable({ output.append(contentsOf: $0) }) == nil {
            output += string.utf8
        }
    }

    /// Appends `texts`, the lines written in this line's place (one, or a frame's several), as the log had this line:
    /// each after its ``prefix`` and ending as it did (the last with this line's ending, which may be none). A line
    /// that came in a JSON object of its own gives each text a copy of the object; a part of a message of several
    /// lines keeps them inside its object, one part after another.
    package func appendRewritten(_ texts: [String], to output: inout [UInt8]) {
        let between = separator
        for (index, text) in texts.enumerated() {
            let isLast = index == texts.count - 1
            guard let envelope else {
                output += prefix.utf8
                output += text.utf8
                output += isLast ? ending : between
                continue
            }
            let isWhole = envelope.isFirstPart && envelope.isLastPart
            if isWhole || (index == 0 && envelope.isFirstPart) { output += envelope.head.utf8 }
            output += JSONEnvelope.escaped(prefix + text).utf8
            if isWhole || (isLast && envelope.isLastPart) {
                output += envelope.tail.utf8
                output += isLast ? ending : between
            } else {
                output += JSONEnvelope.escapedLineBreak
            }
        }
    }

    /// The bytes after ``prefix``, with the line ending (`\n`, `\r\n` or none on the last line), exactly as read.
    public var bytes: [UInt8] { undecodableBytes ?? Array(text.utf8) + terminator.bytes }

    /// Appends ``bytes`` to `output` without building them first.
    package func append(to output: inout [UInt8]) {
        if let undecodableBytes {
            output += undecodableBytes
            return
        }
        Self.appendBytes(of: text, to: &output)
        switch terminator {
        case .none: break
        case .lineFeed: output.append(10)
        case .carriageReturnLineFeed: output += [13, 10]
        case .carriageReturn: output.append(13)
        }
    }

    /// How many bytes ``bytes`` holds, without building them.
    public var byteCount: Int {
        if let undecodableBytes { return undecodableBytes.count }
        return text.utf8.count + (terminator == .carriageReturnLineFeed ? 2 : terminator == .none ? 0 : 1)
    }

    /// The bytes of all `lines` after their prefixes, one after the other: the log as it was read, less its prefixes.
    package static func joinedBytes<Lines: Sequence<LogLine>>(_ lines: Lines) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.underestimatedCount * 64)
        for line in lines { line.append(to: &bytes) }
        return bytes
    }

    /// The bytes of all `lines` exactly as read (``appendWhole(to:)`` each, prefixes and JSON objects included), one
    /// after the other.
    package static func joinedWholeBytes(_ lines: [LogLine]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(0) { $0 + $1.byteCount + ($1.rare == nil ? 0 : 64) })
        for line in lines { line.appendWhole(to: &bytes) }
        return bytes
    }

    /// What ends each of several lines written in this line's place but the last: its ending, or a line feed when it
    /// has none.
    package var separator: [UInt8] {
        let ending = ending
        return ending.isEmpty ? [UInt8(ascii: "\n")] : ending
    }

    /// The line ending the line carries (empty for a last line without one).
    package var ending: [UInt8] {
        terminator == .carriageReturn ? [] : terminator.bytes
    }

    /// Splits `bytes` into lines, keeping every byte; at most `maximumLines` lines, the first ones, when given.
    package static func split(_ bytes: [UInt8], maximumLines: Int = .max) -> [LogLine] {
        var lines: [LogLine] = []
        var start = 0
        // Line ends found by memchr: every byte of every log is looked at here.
        while lines.count < maximumLines,
            let newline = ByteSearch.firstOffset(of: UInt8(ascii: "\n"), in: bytes, from: start)
        {
            lines.append(LogLine(bytes[start...newline]))
            start = newline + 1
        }
        if start < bytes.count, lines.count < maximumLines { lines.append(LogLine(bytes[start...])) }
        return lines
    }
}
