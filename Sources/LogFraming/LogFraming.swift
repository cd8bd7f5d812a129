import PostmortemCore

/// What carried a log's lines, as found on a sample of them: JSON-lines objects (``JSONLogLines``) and a logger's prefix
/// on most lines (``LinePrefixes``). The one place that decides how a log is unwrapped, for crash logs, dumped values
/// and grouping alike; each reader says how well it reads a set of lines, and a framing is kept only when the reader
/// reads the log at least as well through it.
package struct LogFraming: Hashable, Sendable {
    /// The field of the log's JSON objects that holds each line, when the log is JSON lines.
    package var jsonMessageKey: String?
    /// The shape of the prefix a logger put before most lines (once JSON lines are opened), when one was found.
    package var linePrefix: LinePrefixes.Shape?

    /// No framing: the lines as read.
    package static let none = LogFraming()

    /// Whether the log came with no framing.
    package var isNone: Bool { jsonMessageKey == nil && linePrefix == nil }

    /// ``of(_:reading:)`` of the first lines of `bytes`, where a text of one line too long to be a logger's object and
    /// no other line (a JSON document of megabytes on one line) has no framing, found without splitting it (the split
    /// copies each line's text): a prefix shows on several lines.
    package static func of(bytes: [UInt8], reading: ([LogLine]) -> Int) -> LogFraming {
        if holdsOneLongLine(bytes) { return .none }
        return of(LogLine.split(bytes, maximumLines: LinePrefixes.sampleSize), reading: reading)
    }

    /// Whether one line of `bytes` has text (its line ending aside), longer than ``JSONLogLines/maximumObjectLength``,
    /// and no other line has any.
    private static func holdsOneLongLine(_ bytes: [UInt8]) -> Bool {
        var start = 0
        var longLines = 0
        while start < bytes.count {
            let newline = ByteSearch.firstOffset(of: UInt8(ascii: "\n"), in: bytes, from: start) ?? bytes.count
            var end = newline
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if end > start {
                guard end - start > JSONLogLines.maximumObjectLength, longLines == 0 else { return false }
                longLines += 1
            }
            start = newline + 1
        }
        return longLines == 1
    }

    /// The framing of the log that starts with `sample` (its first ``LinePrefixes/sampleSize`` lines suffice), as a
    /// reader whose `reading` tells how much it makes of a set of lines (a crash log's frames, the lines a dumped value
    /// covers; 0 for nothing) reads it best.
    ///
    /// The cost is the reason for the order. Most logs are neither JSON lines nor prefixed, and pay a look at the first
    /// byte of each sampled line and at the first two tokens of a spread of 48 lines and of the first lines: no
    /// reading, no copy. A log whose first lines ask for it (JSON objects, or a shape common to the log that starts
    /// most of them: ``LinePrefixes/candidates(in:)``) is read by `reading` once as it is, once opened (JSON lines), and once per prefix shape tried (at most 6,
    /// longest first: the shortest that passes could be part of a longer prefix, a timestamp before a host), each on
    /// the sample only: at most 8 readings of at most ``LinePrefixes/sampleSize`` lines, whatever the log's size.
    ///
    /// JSON lines are opened when the messages read as well as the objects or better (a reader may find something in
    /// an object's text too, with the rest of the object glued to it). A prefix is taken off when the lines without it
    /// read as well or better, and read to something, and either better or with the prefix on nine lines in ten (a
    /// prefix glued to a path still lets a frame be read, but not resolved).
    package static func of<Sample: Collection<LogLine>>(_ sample: Sample, reading: ([LogLine]) -> Int) -> LogFraming {
        if let lines = sample as? [LogLine] { return of(lines.prefix(LinePrefixes.sampleSize), reading: reading) }
        return of(Array(sample.prefix(LinePrefixes.sampleSize))[...], reading: reading)
    }

    /// ``of(_:reading:)`` of `sample`, at most ``LinePrefixes/sampleSize`` lines, copied only for a reading (most logs
    /// need none).
    private static func of(_ sample: ArraySlice<LogLine>, reading: ([LogLine]) -> Int) -> LogFraming {
        var framing = LogFraming()
        let key = JSONLogLines.messageKey(in: sample)
        let shapes = key == nil ? LinePrefixes.candidates(in: sample) : []
        guard key != nil || !shapes.isEmpty else { return framing }
        var lines = Array(sample)
        var asRead: Int?
        func readingAsRead() -> Int {
            if let asRead { return asRead }
            let value = reading(lines)
            asRead = value
            return value
        }
        if let key {
            let opened = JSONLogLines.opened(lines, key: key).prefix(LinePrefixes.sampleSize)
            let openedReading = reading(Array(opened))
            if openedReading >= readingAsRead() {
                framing.jsonMessageKey = key
                lines = Array(opened)
                asRead = openedReading
            }
        }
        // The shape that reads best wins (the first of equals): a shorter one may read a little (a prefix's spaces
        // left on the lines that lack them) where the whole prefix reads everything.
        var best = 0
        for shape in (key == nil ? shapes : LinePrefixes.candidates(in: lines[...])).prefix(6) {
            let stripped = reading(LinePrefixes.strip(shape, from: lines))
            guard stripped > best, stripped >= readingAsRead() else { continue }
            if stripped > readingAsRead() || LinePrefixes.coverage(of: shape, in: lines[...]) >= 0.9 {
                framing.linePrefix = shape
                best = stripped
            }
        }
        return framing
    }

    /// `lines` unwrapped as this framing says: JSON lines opened to their messages, then the prefix moved out of each
    /// line's text (``LogLine/prefix``). Lines that are no such object, or have no such prefix, stay as they are.
    package func unwrap(_ lines: [LogLine]) -> [LogLine] {
        unwrapWithOrigins(lines).lines
    }

    /// ``unwrap(_:)`` of `lines`, with the index in `lines` of the line each unwrapped line came from (a JSON object
    /// whose message holds several lines gives several).
    package func unwrapWithOrigins(_ lines: [LogLine]) -> (lines: [LogLine], origins: [Int]) {
        var unwrapped: [LogLine] = [], origins: [Int] = []
        unwrapped.reserveCapacity(lines.count)
        origins.reserveCapacity(lines.count)
        for (index, line) in lines.enumerated() {
            let opened = jsonMessageKey.flatMap { JSONLogLines.open(line, key: $0) } ?? [line]
            unwrapped += opened
            origins += repeatElement(index, count: opened.count)
        }
        if let linePrefix { unwrapped = LinePrefixes.strip(linePrefix, from: unwrapped) }
        return (unwrapped, origins)
    }
}
