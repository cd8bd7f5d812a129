import LogFraming
import PostmortemCore

/// Parses gdb's `bt` (and `thread apply all bt`): `#N  0xADDR in func (args) at file:line` or
/// `… from /lib/x.so`, `Thread N (…):` headers, and the `info proc mappings` table when the log has
/// one, which gives every image's load address.
struct GDBBacktraceParser {
    struct FrameLine: Equatable {
        var index: Int
        var address: UInt64?
        var function: String?
        var library: String?
        var hasLocation: Bool
    }

    /// gdb's line for a signal trampoline: what follows it is the interrupted instruction.
    static let signalLine = "<signal handler called>"

    static func frame(in line: String) -> FrameLine? {
        // Over the line's bytes by offset: every line of a log comes here, and steps through substring views cost
        // more than the reading.
        let bytes = line.utf8.span
        guard bytes.count > 1, bytes[0] == UInt8(ascii: "#") else { return nil }
        var cursor = 1
        guard let (index, digits) = LineBytes.decimal(in: bytes, at: &cursor), digits > 0, cursor < bytes.count,
            bytes[cursor] == UInt8(ascii: " ")
        else { return nil }
        while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
        var address: UInt64?
        var space = cursor
        while space < bytes.count, bytes[space] != UInt8(ascii: " ") { space += 1 }
        if starts(bytes, at: cursor, with: "0x"), starts(bytes, at: space, with: " in ") {
            address = HexNumber.parse(bytes, cursor..<space)
            guard address != nil else { return nil }
            cursor = space + 4
        }
        let rest = bytes.extracting(cursor..<bytes.count)
        var library: String?
        if let from = ByteSearch.lastOffset(of: " from ".utf8.span, in: rest) {
            library = LineBytes.text(LineBytes.trimmed(cursor + from + 6..<bytes.count, in: bytes), of: line)
        }
        let hasLocation = ByteSearch.firstOffset(of: " at ".utf8.span, in: rest) != nil
        var function: String?
        if starts(bytes, at: cursor, with: signalLine) {
            function = signalLine
        } else {
            var nameEnd = cursor
            while nameEnd < bytes.count, bytes[nameEnd] != UInt8(ascii: " "), bytes[nameEnd] != UInt8(ascii: "(") {
                nameEnd += 1
            }
            let isUnknown =
                nameEnd - cursor == 2 && bytes[cursor] == UInt8(ascii: "?") && bytes[cursor + 1] == UInt8(ascii: "?")
            if nameEnd > cursor, !isUnknown { function = LineBytes.text(cursor..<nameEnd, of: line) }
        }
        return FrameLine(index: index, address: address, function: function, library: library, hasLocation: hasLocation)
    }

    /// Whether `bytes` hold `word` at `offset`.
    private static func starts(_ bytes: Span<UInt8>, at offset: Int, with word: String) -> Bool {
        let wanted = word.utf8.span
        guard offset >= 0, bytes.count - offset >= wanted.count else { return false }
        for position in 0..<wanted.count where bytes[offset + position] != wanted[position] { return false }
        return true
    }

    /// Two frames, or one in gdb's own output (its prompt, or the signal that stopped the program): a core file
    /// opened in gdb often shows just the frame it stopped in.
    static func recognizes(_ lines: [LogLine]) -> Bool {
        var frames = 0
        var isSession = false
        for line in lines {
            let text = line.text
            if text.hasPrefix("(gdb) ") || text.hasPrefix("Program received signal ")
                || text.hasPrefix("Program terminated with signal ")
            {
                isSession = true
            }
            guard text.hasPrefix("#"), let parsed = frame(in: text) else { continue }
            if parsed.address != nil || parsed.hasLocation { frames += 1 }
            if frames >= 2 { return true }
        }
        return frames == 1 && isSession
    }

    /// `      0x555555554000     0x555555555000     0x1000        0x0  r--p   /tmp/gdbs/sensors`.
    static func mapping(in line: String) -> (start: UInt64, end: UInt64, offset: UInt64, path: String)? {
        guard line.utf8.first(where: { $0 != 0x20 }) == UInt8(ascii: "0") else { return nil }
        let fields = line.spaceSeparatedFields
        guard fields.count >= 5, let start = HexNumber.parse(fields[0]), let end = HexNumber.parse(fields[1]),
            let offset = HexNumber.parse(fields[3]), let path = fields.last, path.utf8.first == UInt8(ascii: "/")
        else { return nil }
        return (start, end, offset, String(path))
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .gdbBacktrace, exception: nil, threads: [], images: [], lines: lines)
        for line in lines {
            guard let map = mapping(in: line.text) else { continue }
            let index = report.imageIndex(named: GlibcBacktraceParser.fileName(map.path), path: map.path)
            if map.offset == 0, report.images[index].loadAddress.map({ map.start < $0 }) ?? true {
                report.images[index].loadAddress = map.start
            }
            report.images[index].endAddress = max(report.images[index].endAddress ?? 0, map.end)
        }
        var threads = ThreadBuilder()
        var currentThread: Int?
        for (number, line) in lines.enumerated() {
            let text = line.text
            if currentThread == nil, let thread = Self.currentThread(in: text) { currentThread = thread }
            if report.exception == nil,
                let range = text.range(of: "Program received signal ") ?? text.range(
                    of: "Program terminated with signal ")
                    ?? text.range(of: " received signal ")
            {
                var signal = String(text[range.upperBound...])
                if signal.hasSuffix(".") { signal.removeLast() }
                let parts = signal.split(separator: ",", maxSplits: 1).map { String($0).trimmingWhitespace }
                report.exception = CrashReport.Exception(type: parts.first, message: parts.count > 1 ? parts[1] : nil)
            }
            if text.hasPrefix("Thread "), text.hasSuffix(":") {
                let digits = text.dropFirst("Thread ".count).prefix { $0.isASCIIDigit }
                threads.begin(
                    CrashThread(
                        index: Int(digits) ?? report.threads.count, name: String(text.dropLast()),
                        crashed: report.threads.isEmpty, frames: []), into: &report)
                continue
            }
            guard let parsed = frame(in: text) else { continue }
            // A `#0` starts a stack, unless it is the first frame under a `Thread N (…):` header (a warning between them).
            if !threads.isOpen || (parsed.index == 0 && !(threads.current?.frames.isEmpty ?? false)) {
                threads.begin(
                    CrashThread(index: report.threads.count, name: nil, crashed: report.threads.isEmpty, frames: []),
                    into: &report)
            }
            var image = parsed.address.flatMap { address in
                report.images.firstIndex { image in
                    guard let start = image.loadAddress, let end = image.endAddress else { return false }
                    return address >= start && address < end
                }
            }
            // gdb wraps a long line before ` from /lib/…`: the library is on the next line.
            var library = parsed.library
            if library == nil, number + 1 < lines.count {
                let next = lines[number + 1].text.trimmingWhitespace
                if next.hasPrefix("from /") { library = String(next.dropFirst("from ".count)) }
            }
            if image == nil, let library {
                image = report.imageIndex(named: GlibcBacktraceParser.fileName(library), path: library)
            }
            var frame = CrashFrame(
                index: parsed.index, address: parsed.address,
                addressKind: parsed.index == 0 ? .programCounter : .returnAddress, image: image,
                imageOffset: nil, symbolInLog: parsed.function, lineNumber: number, lineStyle: .gdb)
            frame.isSymbolicatedInLog = parsed.hasLocation
            frame.sourceInLog = Self.location(in: text)
            threads.append(frame)
        }
        threads.close(into: &report)
        for index in report.threads.indices { markInlinedFrames(in: &report.threads[index]) }
        let stoppedIn = dropStopFrame(from: &report)
        markCrashedThread(in: &report, current: currentThread, stoppedIn: stoppedIn)
        return report
    }

    /// gdb prints the address of an inline chain on its innermost frame only: a frame after the first printed without
    /// an address is the function the frame above it was inlined into (gdb's `frame_show_address`). The frame after a
    /// signal trampoline is no caller (it is the interrupted instruction, printed without an address when that starts
    /// a line), and neither is the trampoline itself.
    static func markInlinedFrames(in thread: inout CrashThread) {
        for index in thread.frames.indices.dropFirst() {
            let frame = thread.frames[index], above = thread.frames[index - 1]
            guard frame.address == nil, frame.symbolInLog != nil, frame.symbolInLog != signalLine,
                above.symbolInLog != nil, above.symbolInLog != signalLine, frame.index == above.index + 1
            else { continue }
            thread.frames[index - 1].markInLog = .inlined
        }
    }

    /// The `at FILE:LINE` a frame line ends in, when it has one.
    static func location(in text: String) -> SourceInLog? {
        guard let at = text.lastRange(of: " at ") else { return nil }
        return SourceInLog(parsing: String(text[at.upperBound...]).trimmingWhitespace)
    }

    /// The thread gdb says stopped: `[Current thread is 1 (…)]` (a core), `[Switching to thread 2 (…)]` or
    /// `Thread 2 "worker" received signal SIGSEGV` (a live program).
    static func currentThread(in text: String) -> Int? {
        for prefix in ["[Current thread is ", "[Switching to thread ", "Thread "] where text.hasPrefix(prefix) {
            guard prefix != "Thread " || text.includes(" received signal ") else { continue }
            let digits = text.dropFirst(prefix.count).prefix { $0.isASCIIDigit }
            return Int(digits)
        }
        return nil
    }

    /// gdb prints the frame a program stopped in on a line of its own (`#0  sum_chain (n=0x40) at worker.c:6` on
    /// opening a core) before `bt` prints it again as the first frame of the stack: that line is no thread of its
    /// own. Removes it and returns the index of the thread whose first frame it repeats.
    private static func dropStopFrame(from report: inout CrashReport) -> Int? {
        guard let first = report.threads.first, first.name == nil, first.frames.count == 1 else { return nil }
        let stopLine = report.lines[first.frames[0].lineNumber].text.trimmingWhitespace
        guard
            let repeated = report.threads.indices.dropFirst().first(where: { index in
                report.threads[index].frames.first.map {
                    report.lines[$0.lineNumber].text.trimmingWhitespace == stopLine
                } ?? false
            })
        else { return nil }
        report.threads.removeFirst()
        return repeated - 1
    }

    /// Marks the thread that crashed, and only it: the one gdb names as current, else the one whose first frame is
    /// the frame the program stopped in, else the first.
    private static func markCrashedThread(in report: inout CrashReport, current: Int?, stoppedIn: Int?) {
        guard !report.threads.isEmpty else { return }
        let crashed =
            current.flatMap { number in report.threads.firstIndex { $0.name != nil && $0.index == number } }
            ?? stoppedIn ?? 0
        for index in report.threads.indices { report.threads[index].crashed = index == crashed }
    }
}
