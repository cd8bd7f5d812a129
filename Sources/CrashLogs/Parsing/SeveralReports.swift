import LogFraming

/// A log that holds several reports, of one format or of several (a program's glibc trace and then a Swift runtime's
/// report; an ASan report and then another process's trace; two runs pasted one after the other): where each starts,
/// and each read on its own, with its own images, so that one process's load addresses never place another's frames.
enum SeveralReports {
    /// A line where a report of `format` starts.
    struct Start: Equatable {
        var line: Int
        var format: CrashLogFormat
    }

    /// A run of lines and the report read from it.
    private struct Piece {
        var lines: Range<Int>
        /// The start the piece was cut at; `nil` for the first.
        var start: Start?
        var report: CrashReport
        /// The report's images' load addresses by name (kept as pieces join, not taken again from a growing report).
        var loadAddresses: [String: UInt64]

        init(lines: Range<Int>, start: Start?, report: CrashReport) {
            self.lines = lines
            self.start = start
            self.report = report
            loadAddresses = report.loadAddressesByImage
        }
    }

    /// Where reports start in `lines`, by every format whose markers (`present`, found in the log) the log holds, in
    /// order; one start per line, the format tried first winning.
    static func starts(in lines: [LogLine], markers present: MarkerScan.Found) -> [Start] {
        var starts: [Start] = []
        for (index, reader) in CrashLogParser.readers.enumerated()
        where reader.markers.isEmpty || present.containsAny(of: CrashLogParser.readerMarkers[index]) {
            starts += reader.reportStarts(in: lines).map { Start(line: $0, format: reader.format) }
        }
        // By line; of two at one line, the format tried first (the sort keeps the readers' order).
        var previous = -1
        return starts.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
            .filter { start in
                defer { previous = start.line }
                return start.line != previous
            }
    }

    /// `starts` less those that cannot begin a second report, which spares reading the log again in pieces: a start
    /// of a format `whole`'s format holds inside its reports (``CrashLogFormatReader/embeddedFormats``), above its last
    /// frame (an Apple report's `Terminating app due to uncaught exception` in its header).
    static func worthCutting(_ starts: [Start], whole: CrashReport) -> [Start] {
        let embedded = CrashLogParser.reader(of: whole.format).embeddedFormats
        guard !embedded.isEmpty, let lastFrameLine = whole.threads.lazy.flatMap(\.frames).map(\.lineNumber).max() else {
            return starts
        }
        return starts.filter { $0.line == 0 || $0.line > lastFrameLine || !embedded.contains($0.format) }
    }

    /// Whether `starts` cut a log of `format` into reports of that format only (lines before the first, a preamble or
    /// the end of a report a piece of a large log begins in, read as they would be), of a format that neither holds
    /// other formats inside its reports nor reads the next report as more of its own: the pieces are the reports, and
    /// the log is not read whole first (a log of thousands of sanitizer reports was read twice).
    static func isPlainSeries(_ starts: [Start], of format: CrashLogFormat) -> Bool {
        let reader = CrashLogParser.reader(of: format)
        return starts.count >= 2 && starts.allSatisfy { $0.format == format } && reader.embeddedFormats.isEmpty
            && !reader.continuedBy.contains(format)
    }

    /// Whether `whole` is one process's report for all `starts` say: every start below the first line is a glibc
    /// trace's, which `whole`'s format reads as its own (``CrashLogFormatReader/continuedBy``: another thread), and no
    /// image lies at two addresses in it. Spares a log of thousands of one process's traces reading each again.
    static func isOneProcess(_ whole: CrashReport, starts: [Start]) -> Bool {
        CrashLogParser.reader(of: whole.format).continuedBy.contains(.glibcBacktrace)
            && starts.allSatisfy { $0.line == 0 || $0.format == .glibcBacktrace } && whole.hasFrames
            && !whole.placesAnImageTwice
    }

    /// The reports of `lines`, cut at `starts`; `nil` when the log is one report after all (no cut leaves a report on
    /// both sides of it and the pieces read no more frames than `whole`, or cutting would lose frames `whole` read).
    /// Without `whole` (``isPlainSeries(_:of:)``: nothing to compare the pieces with), `nil` when they join into one.
    ///
    /// A stretch with no stack and no crash of its own (a header, text between two reports) is read with the report
    /// after it, or else with the one before it; what neither reads stays as text of its own, said in a warning. A
    /// trace that continues the report before it in the same process (glibc's stack of another thread, the
    /// sanitizer's report of the abort a program's own trace ended in) is read with it: the two are one process when
    /// no image they share lies at two load addresses.
    /// - Parameter content: the bytes of `lines` one after the other (``LogLine/joinedBytes(_:)``), which each piece's
    ///   reader is given its part of.
    static func read(
        _ lines: [LogLine], content: [UInt8], starts: [Start], whole: CrashReport?, source: String,
        format forced: CrashLogFormat?
    ) -> [CrashReport]? {
        let cuts = starts.filter { $0.line > 0 && $0.line < lines.count }
        guard !cuts.isEmpty else { return nil }
        let reader = PieceReader(lines: lines, content: content, source: source, forced: forced)
        var pieces: [Piece] = []
        // Lines with no report of their own yet, and the start the first of them was cut at.
        var pending: Range<Int>?
        var pendingStart: Start?
        // Adds `next` (if any) to the pieces, with the pending lines read into it or into the piece before.
        func settle(before next: Piece?) -> Bool {
            var next = next
            if let stretch = pending {
                pending = nil
                if let widened = next.flatMap({ reader.widened($0, to: stretch.lowerBound..<$0.lines.upperBound) }) {
                    next = widened
                } else if let last = pieces.last,
                    let widened = reader.widened(last, to: last.lines.lowerBound..<stretch.upperBound)
                {
                    pieces[pieces.count - 1] = widened
                    if let pendingStart {
                        pieces[pieces.count - 1].report.warnings.append(Self.noStack(stretch, pendingStart))
                    }
                } else if let format = next?.report.format ?? pieces.last?.report.format {
                    var text = CrashReport(
                        format: format, exception: nil, threads: [], images: [], lines: Array(lines[stretch]))
                    text.warnings.append(Self.noStack(stretch, pendingStart))
                    pieces.append(Piece(lines: stretch, start: pendingStart, report: text))
                } else {
                    return false
                }
                pendingStart = nil
            }
            if let next { pieces.append(next) }
            return true
        }
        for (index, end) in (cuts.map(\.line) + [lines.count]).enumerated() {
            let segmentStart = index == 0 ? nil : cuts[index - 1]
            let range = (segmentStart?.line ?? 0)..<end
            let next = index < cuts.count ? cuts[index] : nil
            // In a plain series each piece begins with a start of the log's one format: no other format's start lies
            // in it, so it is read as that format without detecting it again (for thousands of reports).
            let expected = whole == nil ? (segmentStart ?? starts.first { $0.line == 0 })?.format : nil
            if let read = reader.read(range, expecting: expected), standsAlone(read, cutAt: segmentStart, before: next)
            {
                guard settle(before: Piece(lines: range, start: segmentStart, report: read)) else { return nil }
            } else {
                pending = (pending?.lowerBound ?? range.lowerBound)..<end
                if pendingStart == nil { pendingStart = segmentStart }
            }
        }
        guard settle(before: nil) else { return nil }
        var joined: [Piece] = []
        for piece in pieces {
            // By index, holding no copy of the piece joined into: its arrays then grow in place.
            if let last = joined.indices.last, continuesProcess(of: joined[last], with: piece) {
                joined[last].lines = joined[last].lines.lowerBound..<piece.lines.upperBound
                joined[last].report.append(piece.report)
                joined[last].loadAddresses.merge(piece.loadAddresses) { kept, _ in kept }
            } else {
                joined.append(piece)
            }
        }
        // One report after all is still better read in pieces when the whole log was taken for a format whose frames it lacks.
        let frames = joined.reduce(0) { $0 + $1.report.frameCount }
        guard let whole else { return joined.count > 1 ? joined.map(\.report) : nil }
        guard frames >= whole.frameCount, joined.count > 1 || frames > whole.frameCount else { return nil }
        return joined.map(\.report)
    }

    /// The warning for `stretch`, lines that read as no report.
    private static func noStack(_ stretch: Range<Int>, _ start: Start?) -> String {
        let what =
            start.map { "look like the start of a report (\($0.format.rawValue)) but hold no stack" } ?? "hold no stack"
        return "lines \(stretch.lowerBound + 1)–\(stretch.upperBound) \(what); printed as they are"
    }

    /// Reads runs of a log's lines as reports.
    private struct PieceReader {
        let lines: [LogLine]
        let content: [UInt8]
        let source: String
        let forced: CrashLogFormat?
        /// Where each line's bytes start in `content`, and where the last ends; empty when `content` is not the lines'
        /// bytes (then each piece's are joined from its lines).
        let lineStarts: [Int]

        init(lines: [LogLine], content: [UInt8], source: String, forced: CrashLogFormat?) {
            self.lines = lines
            self.content = content
            self.source = source
            self.forced = forced
            var lineStarts = [0]
            lineStarts.reserveCapacity(lines.count + 1)
            for line in lines { lineStarts.append(lineStarts[lineStarts.count - 1] + line.byteCount) }
            self.lineStarts = lineStarts.last == content.count ? lineStarts : []
            assert(self.lineStarts.isEmpty || LogLine.joinedBytes(lines) == content, "content is not the lines' bytes")
        }

        /// The bytes of the lines in `range`: a copy of their part of `content` (joining thousands of reports' lines
        /// again, line by line, cost as much as reading them).
        private func bytes(of range: Range<Int>) -> [UInt8] {
            guard !lineStarts.isEmpty else { return LogLine.joinedBytes(lines[range]) }
            return Array(content[lineStarts[range.lowerBound]..<lineStarts[range.upperBound]])
        }

        /// The report of `range`, as its own format (or the one forced), or `nil` when it reads as none. With
        /// `expected`, the format is known without detecting it: read as detected logs of it are.
        func read(_ range: Range<Int>, as format: CrashLogFormat? = nil, expecting expected: CrashLogFormat? = nil)
            -> CrashReport?
        {
            let slice = Array(lines[range])
            let bytes = bytes(of: range)
            if forced == nil, format == nil, let expected {
                return try? CrashLogParser.reader(of: expected).read(
                    slice, bytes: bytes, source: source, detected: true)
            }
            return try? CrashLogParser.parse(lines: slice, bytes: bytes, source: source, format: forced ?? format)
        }

        /// `piece` grown to `range` (text before or after it), read as a report that keeps every frame and the crash
        /// `piece` read: as its own format first, then as `piece`'s; `nil` when neither does.
        func widened(_ piece: Piece, to range: Range<Int>) -> Piece? {
            for format in [nil, piece.report.format] {
                guard let read = read(range, as: format), read.frameCount >= piece.report.frameCount,
                    read.exception != nil || piece.report.exception == nil
                else { continue }
                return Piece(lines: range, start: piece.start, report: read)
            }
            return nil
        }
    }

    /// Whether `report` is one of its own: it has a stack, or it states a crash, reads as the format of the start it
    /// was cut at, and the next report (if any) starts as one of that format too (two Swift runtime reports that could
    /// not fetch their threads). A header cut off its stack by another format's line (an Apple report's
    /// `Terminating app due to uncaught exception`) is not.
    private static func standsAlone(_ report: CrashReport, cutAt start: Start?, before next: Start?) -> Bool {
        if report.frameCount > 0 { return true }
        guard report.exception != nil, let start, start.format == report.format else { return false }
        return next.map { $0.format == report.format } ?? true
    }

    /// Whether `next` is more of the process `previous` reported, of a kind `previous`'s format carries
    /// (``CrashLogFormatReader/continuedBy``: glibc's stack of another thread, systemd-coredump's stack of the crash a
    /// Swift runtime's `Fatal error` line states, a sanitizer's report of the abort a program's own trace ended in):
    /// the stack of a crash `previous` only states, or a stack whose images lie where `previous`'s do (no image both
    /// name at two load addresses).
    private static func continuesProcess(of previous: Piece, with next: Piece) -> Bool {
        guard let kind = next.start?.format,
            CrashLogParser.reader(of: previous.report.format).continuedBy.contains(kind)
        else { return false }
        // (Whether it has frames, not how many: a report joined into thousands of times holds thousands of stacks.)
        if !previous.report.hasFrames { return next.report.hasFrames }
        return !next.loadAddresses.contains { name, address in
            previous.loadAddresses[name].map { $0 != address } ?? false
        }
    }
}

extension CrashReport {
    /// How many frames the report's threads hold.
    var frameCount: Int { threads.reduce(0) { $0 + $1.frames.count } }

    /// Whether a thread of the report holds a frame.
    var hasFrames: Bool { threads.contains { !$0.frames.isEmpty } }

    /// Each image's load address, by name, as the image table gives it or its frames imply (address less offset);
    /// an image whose frames disagree is left out.
    var loadAddressesByImage: [String: UInt64] { loadAddresses().byImage }

    /// Whether frames of one image imply two load addresses: the report holds stacks of two processes.
    var placesAnImageTwice: Bool { !loadAddresses().conflicting.isEmpty }

    private func loadAddresses() -> (byImage: [String: UInt64], conflicting: Set<String>) {
        var addresses: [String: UInt64] = [:]
        var conflicting: Set<String> = []
        func note(_ name: String, _ address: UInt64) {
            if let known = addresses[name], known != address {
                conflicting.insert(name)
            } else {
                addresses[name] = address
            }
        }
        for image in images { if let load = image.loadAddress { note(image.name, load) } }
        for thread in threads {
            for frame in thread.frames {
                guard let image = frame.image, images.indices.contains(image), let offset = frame.imageOffset,
                    let address = frame.address, address >= offset
                else { continue }
                note(images[image].name, address - offset)
            }
        }
        for name in conflicting { addresses[name] = nil }
        return (addresses, conflicting)
    }
}
