import LogFraming
import PostmortemCore

/// Parses lldb's `bt` and `thread backtrace all`: `* thread #1, queue = '…', stop reason = …` headers and
/// `frame #N: 0xPC module`func + off at file:line:col` frames, with the load addresses and UUIDs of an
/// `image list` table when the log has one.
struct LLDBBacktraceParser {
    struct FrameLine: Equatable {
        var index: Int
        var address: UInt64
        var module: String?
        var function: String?
        var offset: UInt64?
        var hasLocation: Bool
        /// lldb's `outer [inlined] inner(…)`: the frame is a call inlined into the next.
        var isInlined = false
        /// Where the module name starts (the part symbolication rewrites).
        var moduleStart: String.Index?
    }

    static func frame(in line: String) -> FrameLine? {
        guard let marker = line.range(of: "frame #") else { return nil }
        let before = line[..<marker.lowerBound].trimmingPrefixWhitespaceAndStar
        guard before.isEmpty else { return nil }
        var text = line[marker.upperBound...]
        let digits = text.prefix { $0.isASCIIDigit }
        guard let index = Int(digits), text.dropFirst(digits.count).hasPrefix(": ") else { return nil }
        text = text.dropFirst(digits.count + 2)
        let addressText = text.prefix { $0 != " " }
        guard let address = HexNumber.parse(addressText) else { return nil }
        text = text.dropFirst(addressText.count).drop { $0 == " " }
        var frame = FrameLine(
            index: index, address: address, module: nil, function: nil, offset: nil, hasLocation: false,
            moduleStart: text.isEmpty ? nil : text.startIndex)
        guard !text.isEmpty else { return frame }
        let rest = String(text)
        guard let tick = rest.firstIndex(of: "`") else {
            frame.module = rest.prefix { $0 != " " }.description
            return frame
        }
        frame.module = String(rest[..<tick])
        var function = String(rest[rest.index(after: tick)...])
        for suffix in [" [opt]", " [inlined]", " [artificial]"] where function.hasSuffix(suffix) {
            function.removeLast(suffix.count)
        }
        if let at = function.lastRange(of: " at ") {
            frame.hasLocation = true
            function = String(function[..<at.lowerBound])
        }
        // `worker::run(int) [inlined] compute(k=4)`: the frame is `compute`, inlined into the frame after it.
        if let inlined = function.range(of: " [inlined] ") {
            frame.isInlined = true
            function = String(function[inlined.upperBound...])
        }
        if let plus = function.lastRange(of: " + "), let value = UInt64(function[plus.upperBound...]) {
            frame.offset = value
            function = String(function[..<plus.lowerBound])
        }
        frame.function = function
        return frame
    }

    /// Two frames, or one in lldb's own output (its prompt, or the `stop reason =` of a stopped thread): a session
    /// stopped at a crash often shows just the frame it stopped in.
    static func recognizes(_ lines: [LogLine]) -> Bool {
        var frames = 0
        var isSession = false
        for line in lines {
            let text = line.text
            if text.hasPrefix("(lldb) ") || text.includes("stop reason = ") { isSession = true }
            guard text.includes("frame #"), frame(in: text) != nil else { continue }
            frames += 1
            if frames >= 2 { return true }
        }
        return frames == 1 && isSession
    }

    /// `[  0] 4C4C445B-5555-3144-A18D-535DDD3BDF97 0x0000000100000000 /path/App`.
    static func imageListEntry(in line: String) -> CrashImage? {
        let text = line.trimmingWhitespace
        guard text.hasPrefix("["), let close = text.firstIndex(of: "]") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 3, let load = HexNumber.parse(fields[1]) else { return nil }
        let path = fields[2...].joined(separator: " ")
        return CrashImage(
            name: GlibcBacktraceParser.fileName(path), path: path, identifier: String(fields[0]),
            identifierKind: .fromText, loadAddress: load)
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .lldbBacktrace, exception: nil, threads: [], images: [], lines: lines)
        for line in lines { if let image = imageListEntry(in: line.text) { report.images.append(image) } }
        var threads = ThreadBuilder()
        for (number, line) in lines.enumerated() {
            let text = line.text
            let header = text.trimmingPrefixWhitespaceAndStar
            if header.hasPrefix("thread #") {
                let digits = header.dropFirst("thread #".count).prefix { $0.isASCIIDigit }
                threads.begin(
                    CrashThread(
                        index: Int(digits) ?? report.threads.count, name: header, crashed: text.startsWithCurrentMark,
                        frames: []), into: &report)
                if report.exception == nil, let reason = header.range(of: "stop reason = ") {
                    report.exception = CrashReport.Exception(type: String(header[reason.upperBound...]), message: nil)
                }
                continue
            }
            guard let parsed = frame(in: text) else { continue }
            if !threads.isOpen {
                threads.begin(
                    CrashThread(index: report.threads.count, name: nil, crashed: report.threads.isEmpty, frames: []),
                    into: &report)
            }
            let image = parsed.module.map { module in
                report.images.firstIndex { $0.name == module } ?? report.imageIndex(named: module, path: nil)
            }
            var frame = CrashFrame(
                index: parsed.index, address: parsed.address,
                addressKind: parsed.index == 0 ? .programCounter : .returnAddress, image: image, imageOffset: nil,
                symbolInLog: parsed.function, symbolOffsetInLog: parsed.offset, lineNumber: number,
                lineStyle: parsed.moduleStart.map { .lldb(headLength: FrameLineStyle.length(of: text, upTo: $0)) }
                    ?? .glibc)
            frame.isSymbolicatedInLog = parsed.hasLocation
            if parsed.isInlined { frame.markInLog = .inlined }
            threads.append(frame)
        }
        threads.close(into: &report)
        return report
    }
}

extension StringProtocol {
    /// The text without leading spaces, tabs and lldb's `*` current-thread and current-frame marks (and the `-` or `•`
    /// a Markdown list turns them into when a session is pasted through one).
    var trimmingPrefixWhitespaceAndStar: String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "*" || $0 == "-" || $0 == "•" })
    }

    /// Whether the line starts with lldb's current-thread mark (or the Markdown bullet it became).
    var startsWithCurrentMark: Bool {
        let text = drop { $0 == " " || $0 == "\t" }
        return text.hasPrefix("*") || text.hasPrefix("- ") || text.hasPrefix("•")
    }
}
