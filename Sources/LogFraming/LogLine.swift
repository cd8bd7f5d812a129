import PostmortemCore

/// One line of a log: its text for parsing, and its bytes exactly as read (line ending included).
///
/// A line is a range of the bytes of the log it was split from, shared by all its lines: splitting a log makes no
/// string per line, and a report holding its lines holds the log once. ``text`` is made from the bytes when asked
/// for; a reader that tests many lines before reading a few asks ``withTextBytes(_:)``, ``firstByte`` or
/// ``textByteCount`` first.
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

        var count: Int {
            switch self {
            case .none: 0
            case .lineFeed, .carriageReturn: 1
            case .carriageReturnLineFeed: 2
            }
        }
    }

    /// The bytes of the log the line is part of (shared, not copied, by every line split from them), and what the line
    /// has besides, if anything: the line's one reference, so that a copy of it (a parser's loop makes one of each line)
    /// is one retain.
    private var storage: LineStorage
    private var source: [UInt8] { storage.bytes }
    /// Where the line's text starts in ``source``, after any ``prefix``.
    private var start: Int
    /// How many bytes of ``source`` the text has, from `start` (the line ending follows them).
    private var count: UInt32
    private let terminator: Terminator
    /// ``undecodable`` and ``prefixed``, in one byte: a line has no byte to spare for a `Bool` of each. Visible to
    /// inlined code: ``hasPrefix`` is asked of every line of a tombstone from another module.
    @usableFromInline internal private(set) var flags: UInt8
    /// The bytes are not valid UTF-8 (``text`` has U+FFFD in their place, ``bytes`` has them as read).
    private static let undecodable: UInt8 = 1
    /// A logger's ``prefix`` was moved off the text (the bit ``hasPrefix`` tests).
    @usableFromInline static let prefixed: UInt8 = 2
    private var isUndecodable: Bool { flags & Self.undecodable != 0 }

    /// The text without the line ending and without ``prefix``; invalid UTF-8 reads as U+FFFD here, never in ``bytes``.
    /// Made from the line's bytes at each call.
    public var text: String {
        if let replacement = rare?.text { return replacement }
        return String(decoding: source[start..<start + Int(count)], as: UTF8.self)
    }

    /// Calls `body` with the UTF-8 bytes of ``text`` (for a valid line, exactly the bytes read), without making the
    /// string.
    package func withTextBytes<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        guard isUndecodable else { return try withContent(body) }
        let text = text
        return try body(text.utf8.span)
    }

    /// How many UTF-8 bytes ``text`` has, without making it.
    package var textByteCount: Int { withTextBytes { $0.count } }

    /// Whether ``text`` holds `byte`, without making it: the test a reader puts before its searches of a line, most
    /// lines of most logs holding none of the byte its words need.
    package func textContains(_ byte: UInt8) -> Bool {
        withTextBytes { ByteSearch.firstOffset(of: byte, in: $0) != nil }
    }

    /// Whether ``text`` holds `needle`, compared as bytes, without making it.
    package func textContains(_ needle: String) -> Bool {
        withTextBytes { ByteSearch.firstOffset(of: needle.utf8.span, in: $0) != nil }
    }

    /// Whether ``text`` starts with `prefix`, compared as bytes, without making it.
    package func textStarts(with prefix: String) -> Bool {
        withTextBytes { bytes in
            let prefix = prefix.utf8.span
            guard prefix.count <= bytes.count else { return false }
            for index in prefix.indices where prefix[index] != bytes[index] { return false }
            return true
        }
    }

    /// Whether ``text`` is empty, without making it.
    package var isTextEmpty: Bool { textByteCount == 0 }

    /// What a logger put before the line (`2026-11-25T10:00:01.123Z `, `[pod/app-7d9f/app] `), taken off ``text`` so
    /// that the line parses as the log it carries, and put back when the log is printed (``appendWhole(to:)``).
    public var prefix: String { rare?.prefix ?? "" }
    /// Whether a logger's ``prefix`` was taken off the line, without making the string.
    @inlinable package var hasPrefix: Bool { flags & Self.prefixed != 0 }
    /// The first byte of ``text`` (0 when it is empty), and its last byte that is not a space or a tab (0 when there
    /// is none): what readers test every line of every log by before reading it (a frame's `]`, a header's first
    /// letter), kept so that the test costs no look at the text.
    package private(set) var firstByte: UInt8
    package private(set) var lastNonBlankByte: UInt8
    /// The JSON object a JSON-lines logger wrote the line as, when it did (``JSONEnvelope``); ``text`` is then the
    /// message it carries.
    package var envelope: JSONEnvelope? { rare?.envelope }

    /// What few lines have: a logger's prefix, a JSON envelope and the message that replaced the text, text too long
    /// for the line's count.
    private struct RareParts: Hashable, Sendable {
        var prefix = ""
        var envelope: JSONEnvelope?
        /// The line's text when it is not its bytes: a JSON object's message, or a line of more bytes than ``count``
        /// holds.
        var text: String?
    }
    /// A log's bytes, shared by its lines, and what one line of them has besides (a line with rare parts has a storage
    /// of its own, over the same bytes).
    private final class LineStorage: Sendable {
        let bytes: [UInt8]
        let rare: RareParts?

        init(bytes: [UInt8], rare: RareParts?) {
            self.bytes = bytes
            self.rare = rare
        }
    }

    /// Nil in most lines of most logs.
    private var rare: RareParts? { storage.rare }

    private var rareParts: RareParts {
        get { rare ?? RareParts() }
        set { storage = LineStorage(bytes: storage.bytes, rare: newValue) }
    }

    /// The line whose bytes (its terminator included, if any) are `bytes`.
    package init(bytes: [UInt8]) {
        self.init(LineStorage(bytes: bytes, rare: nil), bytes.span, 0..<bytes.count, knownValid: false)
    }

    /// The line whose bytes (its terminator included, if any) are `range` of `storage`'s, `source` (their span, made
    /// once for all the lines of a log); `knownValid` when they are known to be UTF-8 (a line of a log that is: a line
    /// feed never lies inside a character).
    private init(_ storage: LineStorage, _ source: Span<UInt8>, _ range: Range<Int>, knownValid: Bool) {
        var end = range.upperBound
        var terminator = Terminator.none
        if end > range.lowerBound, source[end - 1] == UInt8(ascii: "\n") {
            end -= 1
            terminator = .lineFeed
        }
        if end > range.lowerBound, source[end - 1] == UInt8(ascii: "\r") {
            end -= 1
            terminator = terminator == .lineFeed ? .carriageReturnLineFeed : .carriageReturn
        }
        let content = source.extracting(range.lowerBound..<end)
        // Each stored property set once, from locals: a line is made for every line of every log, and assigning
        // `self`'s properties along the way made the compiler copy the whole line out again.
        let isUndecodable = !knownValid && (try? UTF8Span(validating: content)) == nil
        let ends =
            isUndecodable
            ? Self.ends(of: String(decoding: storage.bytes[range.lowerBound..<end], as: UTF8.self).utf8.span)
            : Self.ends(of: content)
        self.storage =
            content.count > Int(UInt32.max)
            ? LineStorage(
                bytes: storage.bytes,
                rare: RareParts(text: String(decoding: storage.bytes[range.lowerBound..<end], as: UTF8.self)))
            : storage
        self.start = range.lowerBound
        self.count = UInt32(clamping: content.count)
        self.terminator = terminator
        self.flags = isUndecodable ? Self.undecodable : 0
        self.firstByte = ends.first
        self.lastNonBlankByte = ends.lastNonBlank
    }

    private static func ends(of bytes: Span<UInt8>) -> (first: UInt8, lastNonBlank: UInt8) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        return (bytes.isEmpty ? 0 : bytes[0], end == 0 ? 0 : bytes[end - 1])
    }

    /// The bytes of the line as read after ``prefix``, without the ending, or the text that replaced them.
    private func withContent<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        if let replacement = rare?.text { return try body(replacement.utf8.span) }
        return try body(source.span.extracting(start..<start + Int(count)))
    }

    /// Lines are equal when their bytes, endings, prefixes and envelopes are, wherever their bytes lie.
    public static func == (left: LogLine, right: LogLine) -> Bool {
        guard left.terminator == right.terminator, left.rare == right.rare else { return false }
        return left.withContent { leftBytes in
            right.withContent { rightBytes in
                guard leftBytes.count == rightBytes.count else { return false }
                for index in leftBytes.indices where leftBytes[index] != rightBytes[index] { return false }
                return true
            }
        }
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(terminator)
        hasher.combine(rare)
        withContent { bytes in
            hasher.combine(bytes.count)
            for index in bytes.indices { hasher.combine(bytes[index]) }
        }
    }

    /// Moves the first `moved` bytes of ``text`` into ``prefix``. A line that is not valid UTF-8 keeps its bytes whole,
    /// and so does one that `moved` bytes would cut inside a character.
    package mutating func movePrefix(byteCount moved: Int) {
        guard !isUndecodable, moved > 0, moved <= textByteCount else { return }
        // A UTF-8 continuation byte (`10xxxxxx`) after the cut would leave part of a character on each side.
        let cutsCharacter = withContent { moved < $0.count && $0[moved] & 0xC0 == 0x80 }
        guard !cutsCharacter else { return }
        if let replacement = rare?.text {
            let utf8 = replacement.utf8
            let split = utf8.index(utf8.startIndex, offsetBy: moved)
            rareParts.prefix = String(Substring(utf8[..<split]))
            rareParts.text = String(Substring(utf8[split...]))
        } else {
            rareParts.prefix = String(decoding: source[start..<start + moved], as: UTF8.self)
            start += moved
            count -= UInt32(moved)
        }
        flags |= Self.prefixed
        (firstByte, lastNonBlankByte) = withContent { Self.ends(of: $0) }
    }

    /// Takes the line as the JSON object `envelope` describes: its text becomes the message the object carries.
    mutating func open(_ envelope: JSONEnvelope, message: String) {
        guard !isUndecodable, prefix.isEmpty else { return }
        rareParts.envelope = envelope
        rareParts.text = message
        (firstByte, lastNonBlankByte) = Self.ends(of: message.utf8.span)
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
    public var bytes: [UInt8] {
        if let replacement = rare?.text { return Array(replacement.utf8) + terminator.bytes }
        return Array(source[start..<start + Int(count) + terminator.count])
    }

    /// Appends ``bytes`` to `output` without building them first.
    package func append(to output: inout [UInt8]) {
        if let replacement = rare?.text {
            Self.appendBytes(of: replacement, to: &output)
            output += terminator.bytes
            return
        }
        output += source[start..<start + Int(count) + terminator.count]
    }

    /// How many bytes ``bytes`` holds, without building them.
    public var byteCount: Int {
        if let replacement = rare?.text { return replacement.utf8.count + terminator.count }
        return Int(count) + terminator.count
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
        let storage = LineStorage(bytes: bytes, rare: nil)
        // Checked once for the whole log, not line by line: most logs are UTF-8 throughout (the first lines of a large
        // one are checked each).
        let isValid = maximumLines == .max && (try? UTF8Span(validating: bytes.span)) != nil
        let source = bytes.span
        var lines: [LogLine] = []
        // Room for lines of 64 bytes, about the mean of the logs the repository carries: growing the array a line at a
        // time copied it a dozen times for a log of a few hundred lines.
        lines.reserveCapacity(min(maximumLines, bytes.count / 64 + 1))
        var start = 0
        // Line ends found by memchr: every byte of every log is looked at here.
        while lines.count < maximumLines,
            let newline = ByteSearch.firstOffset(of: UInt8(ascii: "\n"), in: bytes, from: start)
        {
            lines.append(LogLine(storage, source, start..<newline + 1, knownValid: isValid))
            start = newline + 1
        }
        if start < bytes.count, lines.count < maximumLines {
            lines.append(LogLine(storage, source, start..<bytes.count, knownValid: isValid))
        }
        return lines
    }
}
