import LogFraming
import PostmortemCore

/// Parses uncaught Objective-C exception logs: `*** Terminating app due to uncaught exception 'Name', reason: '…'`
/// and the `*** First throw call stack:` that follows, as a parenthesised list of return addresses
/// (`(0x18278ae38 0x181deff80 …)`, on one line or several; the old `Stack: (` list in decimal) or as
/// `callStackSymbols` lines (`0   CoreFoundation   0x1a… __exceptionPreprocess + 220`). Also the forms crash
/// reporters paste: Crashlytics' `Fatal Exception: Name` and an `Application Specific Backtrace N:` block, each
/// followed by frame lines without parentheses; and a signal handler's dump (`Application received signal
/// SIGSEGV`, the reason, a `((`-opened list of `callStackSymbols`, then `Binary Image:`/`Base Address:`/`dSYM UUID:`
/// lines that place the app's image).
struct NSExceptionParser {
    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains { line in
            let text = line.text
            return text.includes("Terminating app due to uncaught exception") || text.includes("First throw call stack")
                || text.includes("Call stack at first throw") || text.hasPrefix("Fatal Exception: ")
                || text.hasPrefix("Application Specific Backtrace") || text.hasPrefix("Application received signal ")
        }
    }

    /// A line that starts frame lines without parentheses, and the name of the stack it starts.
    private static func blockHeader(_ text: String) -> String? {
        if text.hasPrefix("Fatal Exception: ") { return "Fatal Exception" }
        if text.hasPrefix("Application Specific Backtrace") { return String(text.prefix { $0 != ":" }) }
        return nil
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .nsException, exception: nil, threads: [], images: [], lines: lines)
        var frames: [CrashFrame] = []
        var inList = false
        var listIsDecimal = false
        var expectList = false
        var block: String?
        var skipReasonLine = false
        var listName = "First throw call stack"
        var trailer = ImageTrailer()
        for (number, line) in lines.enumerated() {
            let text = line.text
            if report.exception == nil, let exception = exception(in: text) { report.exception = exception }
            if let name = block {
                // Frame lines without parentheses, up to the first line that is not one.
                if let parsed = AppleCrashParser.frame(in: text) {
                    frames.append(frame(parsed, line: number, style: parsed.style(in: text), in: &report))
                    continue
                }
                report.threads.append(
                    CrashThread(
                        index: report.threads.count, name: name, crashed: report.threads.isEmpty, frames: frames))
                frames = []
                block = nil
            }
            if let name = blockHeader(text) {
                if report.exception == nil, text.hasPrefix("Fatal Exception: ") {
                    report.exception = CrashReport.Exception(
                        type: String(text.dropFirst("Fatal Exception: ".count)), message: nil)
                }
                block = name
                continue
            }
            if text.hasPrefix("Application received signal ") {
                report.exception = CrashReport.Exception(
                    type: String(text.dropFirst("Application received signal ".count)), message: nil)
                expectList = true
                skipReasonLine = true
                listName = "Call stack at the signal"
                continue
            }
            if skipReasonLine {
                // The reason, `(null)` when there is none.
                skipReasonLine = false
                if text != "(null)" { report.exception?.message = text }
                continue
            }
            if trailer.read(text) { continue }
            if text.includes("First throw call stack") || text.includes("Call stack at first throw")
                || text.hasSuffix("Stack: (")
            {
                expectList = true
                listIsDecimal = text.hasSuffix("Stack: (")
                inList = listIsDecimal
                continue
            }
            guard expectList || inList else { continue }
            let trimmed = text.trimmingWhitespace
            if trimmed.isEmpty { continue }
            if !inList {
                guard trimmed.hasPrefix("(") else { expectList = false; continue }
                inList = true
            }
            if let parsed = AppleCrashParser.frame(in: trimmed) {
                // A frame line never closes the list, even when it ends in `(main.m:14)`.
                let head = FrameLineStyle.length(of: text, upTo: parsed.tailStart, ofTrimmed: trimmed)
                frames.append(frame(parsed, line: number, style: .darwin(headLength: head), in: &report))
                continue
            }
            for word in trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" || $0 == ")" || $0 == "," }
            ) {
                let address = listIsDecimal ? UInt64(word) : HexNumber.parse(word)
                guard let address else { continue }
                frames.append(
                    CrashFrame(
                        index: frames.count, address: address, addressKind: .returnAddress, image: nil,
                        imageOffset: nil, lineNumber: number, lineStyle: .addressList))
            }
            if trimmed.hasSuffix(")") {
                inList = false
                expectList = false
                if !frames.isEmpty {
                    report.threads.append(
                        CrashThread(
                            index: report.threads.count, name: listName, crashed: report.threads.isEmpty, frames: frames
                        ))
                }
                frames = []
            }
        }
        if let name = block {
            report.threads.append(
                CrashThread(index: report.threads.count, name: name, crashed: report.threads.isEmpty, frames: frames))
        } else if !frames.isEmpty {
            report.warnings.append("the call stack list is not closed; the log may be cut short")
            report.threads.append(
                CrashThread(
                    index: report.threads.count, name: listName, crashed: report.threads.isEmpty, frames: frames))
        }
        trailer.apply(to: &report)
        return report
    }

    private static func frame(
        _ parsed: AppleCrashParser.FrameLine, line number: Int, style: FrameLineStyle, in report: inout CrashReport
    ) -> CrashFrame {
        let image = report.imageIndex(named: parsed.image, path: nil)
        return CrashFrame(
            index: parsed.index, address: parsed.address, addressKind: .returnAddress, image: image,
            imageOffset: nil, symbolInLog: parsed.symbol, symbolOffsetInLog: parsed.offset, lineNumber: number,
            lineStyle: style)
    }

    /// The lines a signal handler writes after its stack to place the app's image: `Binary Image: DemoApp`,
    /// `Base Address: 0x1000e4000`, `dSYM UUID: E5B0…`, `CPU Type: arm64`.
    private struct ImageTrailer {
        var name: String?
        var loadAddress: UInt64?
        var uuid: String?
        var architecture: String?

        /// Takes the line when it is one of the trailer's.
        mutating func read(_ text: String) -> Bool {
            func value(after prefix: String) -> String? {
                text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)).trimmingWhitespace : nil
            }
            if let value = value(after: "Binary Image: ") {
                name = value
            } else if let value = value(after: "Base Address: ") {
                loadAddress = HexNumber.parse(value)
            } else if let value = value(after: "dSYM UUID: ") {
                uuid = value
            } else if let value = value(after: "CPU Type: ") {
                architecture = value
            } else {
                return false
            }
            return true
        }

        func apply(to report: inout CrashReport) {
            guard let name else { return }
            let index = report.imageIndex(named: name, path: nil)
            report.images[index].loadAddress = loadAddress ?? report.images[index].loadAddress
            if let uuid { report.images[index].identify(as: uuid, kind: .uuid) }
            report.images[index].architecture = architecture ?? report.images[index].architecture
        }
    }

    /// `… uncaught exception 'NSRangeException', reason: '*** -[__NSArrayI objectAtIndex:]: index 5 beyond bounds'`.
    static func exception(in text: String) -> CrashReport.Exception? {
        guard let marker = text.range(of: "uncaught exception '") else { return nil }
        let rest = text[marker.upperBound...]
        let name = rest.prefix { $0 != "'" }
        var reason: String?
        if let reasonMarker = String(rest).range(of: "reason: '") {
            var text = String(String(rest)[reasonMarker.upperBound...])
            if text.hasSuffix("'") { text.removeLast() }
            reason = text
        }
        return CrashReport.Exception(type: String(name), message: reason)
    }
}
