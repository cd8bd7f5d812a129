/// Why a log could not be parsed.
public struct CrashLogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The log's name, as given (a path, or `-` for standard input).
    public var source: String
    /// What is wrong, in one line.
    public var detail: String
    /// The input is no log of a format this version reads (rather than a log of one that is cut or damaged).
    public var isUnknownFormat: Bool

    /// An error about `source`; `isUnknownFormat` when no parser recognised it.
    public init(source: String, detail: String, isUnknownFormat: Bool = false) {
        self.source = source
        self.detail = detail
        self.isUnknownFormat = isUnknownFormat
    }

    /// The source and the detail, in one line.
    public var description: String { "\(source): \(detail)" }
}

/// Detects a log's format and parses it.
public enum CrashLogParser {
    /// The formats this version parses, in the order they are tried (the research notes' detection order).
    public static let supportedFormats: [CrashLogFormat] = [.appleIPS, .appleCrash, .androidTombstone, .breakpadStackwalk, .nsException, .sanitizer, .swiftBacktrace, .swiftFatal, .systemdCoredump, .gdbBacktrace, .lldbBacktrace, .glibcBacktrace]

    /// The format of the log, or `nil` when it is none this version reads. Each format is first ruled
    /// out, when it can be, by one search over the whole log for a marker it cannot lack.
    public static func detectFormat(_ lines: [LogLine]) -> CrashLogFormat? {
        detectFormat(lines, bytes: LogLine.joinedBytes(lines))
    }

    /// Every marker `detectFormat` looks for, found in one pass.
    private static let formatMarkers = MarkerScan(markers: [
        "Thread ", "Exception Type:", "Incident Identifier:", " pc ", "Build fingerprint:", "Operating system:", "OS|",
        "uncaught exception", "throw call stack", "Call stack at first throw", "Fatal Exception: ", "Application Specific Backtrace",
        "Application received signal ", "Sanitizer", ": runtime error: ", "Program crashed: ", "crashReport", "Current stack trace:", "Received signal ", "Fatal error: ", "Assertion failed: ",
        "Precondition failed: ", "Stack trace of thread ",
        "#", "frame #", "[0x", " 0x",
    ])

    private static let swiftTraceMarker = MarkerScan(markers: ["Current stack trace:"])

    static func detectFormat(_ lines: [LogLine], bytes: [UInt8]) -> CrashLogFormat? {
        // An `.ips` says so on its first line: no need to look through the (large) rest of it.
        if AppleIPSParser.recognizes(lines) { return .appleIPS }
        let found = formatMarkers.markers(in: bytes)
        func has(_ marker: String) -> Bool {
            assert(formatMarkers.markers(in: Array(marker.utf8)).contains(marker), "\(marker) is not one of formatMarkers")
            return found.contains(marker)
        }
        if has("Thread ") || has("Exception Type:") || has("Incident Identifier:"), AppleCrashParser.recognizes(lines) { return .appleCrash }
        if has(" pc ") || has("Build fingerprint:"), AndroidTombstoneParser.recognizes(lines) { return .androidTombstone }
        if has("Operating system:") || has("OS|"),
           BreakpadStackwalkParser.recognizes(lines) || BreakpadMachineReadableParser.recognizes(lines) { return .breakpadStackwalk }
        if has("uncaught exception") || has("throw call stack") || has("Call stack at first throw") || has("Fatal Exception: ")
            || has("Application Specific Backtrace") || has("Application received signal "), NSExceptionParser.recognizes(lines) {
            return .nsException
        }
        if has("Sanitizer") || has(": runtime error: "), SanitizerParser.recognizes(lines) { return .sanitizer }
        if has("Program crashed: ") || has("crashReport"), SwiftBacktraceParser.recognizes(lines) { return .swiftBacktrace }
        if has("Current stack trace:") || has("Received signal ") || has("Fatal error: ") || has("Assertion failed: ")
            || has("Precondition failed: "),
           SwiftFatalParser.recognizes(lines) || SwiftBacktracePackageParser.recognizes(lines) { return .swiftFatal }
        if has("Stack trace of thread "), SystemdCoredumpParser.recognizes(lines) { return .systemdCoredump }
        if has("#"), GDBBacktraceParser.recognizes(lines) { return .gdbBacktrace }
        if has("frame #"), LLDBBacktraceParser.recognizes(lines) { return .lldbBacktrace }
        if has("[0x") || has(" 0x"), GlibcBacktraceParser.recognizes(lines) { return .glibcBacktrace }
        return nil
    }

    /// The format of a program's own trace (a Swift runtime's, glibc's) when it comes before the first frame of a
    /// sanitizer's report in the same log.
    static func firstTraceBeforeSanitizer(_ lines: [LogLine]) -> CrashLogFormat? {
        for line in lines {
            if SanitizerParser.frame(in: line.text) != nil { return nil }
            if line.text.hasPrefix("Current stack trace:") { return .swiftFatal }
            if GlibcBacktraceParser.frame(in: line.text)?.module != nil { return .glibcBacktrace }
        }
        return nil
    }

    /// Parses the log in `bytes`; `format` forces one.
    /// - Parameter source: the file name (or `-`) errors name.
    /// - Throws: ``CrashLogError`` when the format is not recognised or not supported yet.
    public static func parse(_ bytes: [UInt8], source: String, format: CrashLogFormat? = nil) throws(CrashLogError) -> CrashReport {
        let lines = LogLine.split(bytes)
        if let stripped = withoutLinePrefixes(lines, format: format) {
            return try parse(lines: stripped, bytes: LogLine.joinedBytes(stripped), source: source, format: format)
        }
        return try parse(lines: lines, bytes: bytes, source: source, format: format)
    }

    /// Every report in the log in `bytes`: one for most logs, one per crash for a log that holds several of a format
    /// whose reports start with a line of their own (``ReportBoundaries``). Each report holds its own lines; printed one
    /// after the other, they give the log back.
    /// - Throws: ``CrashLogError`` when the format is not recognised, as ``parse(_:source:format:)``.
    public static func parseAll(_ bytes: [UInt8], source: String, format: CrashLogFormat? = nil) throws(CrashLogError) -> [CrashReport] {
        var lines = LogLine.split(bytes)
        var content = bytes
        if let stripped = withoutLinePrefixes(lines, format: format) {
            lines = stripped
            content = LogLine.joinedBytes(stripped)
        }
        let whole = try parse(lines: lines, bytes: content, source: source, format: format)
        // The first report takes the lines before it too.
        let starts = ReportBoundaries.starts(of: whole.format, in: lines).dropFirst()
        guard !starts.isEmpty else { return [whole] }
        var reports: [CrashReport] = []
        var segmentStart = 0
        for end in starts + [lines.count] where end > segmentStart {
            let segment = Array(lines[segmentStart..<end])
            segmentStart = end
            // A stretch that reads as no report means the boundaries were not reports' after all: the log is one.
            guard var report = try? parse(lines: segment, bytes: LogLine.joinedBytes(segment), source: source, format: whole.format),
                  !report.threads.isEmpty || report.exception != nil else { return [whole] }
            if report.format != whole.format { report.format = whole.format }
            reports.append(report)
        }
        return reports.count > 1 ? reports : [whole]
    }

    /// `lines` with the prefix a logger put before each of them moved out of their text (``LinePrefixes``), when
    /// they have one and the log parses at least as well without it: as many frames or more, and either more frames or
    /// a prefix on nine lines in ten (a prefix glued to paths still lets frames be read, but not resolved). `nil`
    /// when they have none.
    static func withoutLinePrefixes(_ lines: [LogLine], format: CrashLogFormat?) -> [LogLine]? {
        let sample = lines.prefix(LinePrefixes.sampleSize)
        let candidates = LinePrefixes.candidates(in: sample)
        guard !candidates.isEmpty else { return nil }
        func frameCount(_ lines: [LogLine]) -> Int {
            guard let report = try? parse(lines: lines, bytes: LogLine.joinedBytes(lines), source: "", format: format) else { return 0 }
            return report.threads.reduce(0) { $0 + $1.frames.count }
        }
        let framesAsIs = frameCount(Array(sample))
        // Longest first: the shortest that passes could be part of a longer prefix (a timestamp before a host).
        for shape in candidates.prefix(6) {
            let stripped = LinePrefixes.strip(shape, from: Array(sample))
            let frames = frameCount(stripped)
            guard frames > 0, frames >= framesAsIs else { continue }
            if frames > framesAsIs || LinePrefixes.coverage(of: shape, in: sample) >= 0.9 {
                return LinePrefixes.strip(shape, from: lines)
            }
        }
        return nil
    }

    private static func parse(lines: [LogLine], bytes: [UInt8], source: String, format forced: CrashLogFormat?) throws(CrashLogError) -> CrashReport {
        guard let format = forced ?? detectFormat(lines, bytes: bytes) else {
            throw CrashLogError(source: source, detail: "no crash log or trace of a known format (this version reads: "
                                + supportedFormats.map(\.rawValue).joined(separator: ", ") + ")", isUnknownFormat: true)
        }
        switch format {
        case .sanitizer:
            // A sanitizer report may follow a program's own trace: a Swift runtime's or glibc's.
            var report = SanitizerParser.parse(lines)
            if swiftTraceMarker.markers(in: bytes).contains("Current stack trace:") { SwiftFatalParser.appendStacks(to: &report) }
            GlibcBacktraceParser.appendStacks(to: &report)
            // A program's own trace, then the sanitizer's report of the abort it ended in: the log is the program's.
            if forced == nil, let first = firstTraceBeforeSanitizer(lines) { report.format = first }
            return report
        case .glibcBacktrace: return GlibcBacktraceParser.parse(lines)
        case .swiftBacktrace:
            if let line = SwiftBacktraceJSONParser.reportLine(in: lines) {
                return try SwiftBacktraceJSONParser.parse(lines, bytes: bytes, reportLine: line, source: source)
            }
            return SwiftBacktraceParser.parse(lines)
        case .appleCrash: return AppleCrashParser.parse(lines)
        case .nsException: return NSExceptionParser.parse(lines)
        case .gdbBacktrace: return GDBBacktraceParser.parse(lines)
        case .androidTombstone: return AndroidTombstoneParser.parse(lines)
        case .breakpadStackwalk:
            return BreakpadMachineReadableParser.recognizes(lines) ? BreakpadMachineReadableParser.parse(lines) : BreakpadStackwalkParser.parse(lines)
        case .swiftFatal:
            var report = SwiftFatalParser.parse(lines)
            SwiftBacktracePackageParser.appendStacks(to: &report)
            // A Swift runtime's failure, then the trace systemd-coredump logged of the same crash.
            if SystemdCoredumpParser.recognizes(lines) { SystemdCoredumpParser.appendStacks(to: &report) }
            GlibcBacktraceParser.appendStacks(to: &report)
            return report
        case .lldbBacktrace: return LLDBBacktraceParser.parse(lines)
        case .systemdCoredump: return SystemdCoredumpParser.parse(lines)
        case .appleIPS: return try AppleIPSParser.parse(lines, bytes: bytes, source: source)
        }
    }
}
