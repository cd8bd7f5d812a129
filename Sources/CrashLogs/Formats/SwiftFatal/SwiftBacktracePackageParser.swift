import LogFraming

/// Parses what the swift-backtrace package (used by Swift servers before the runtime had a backtracer) prints on a
/// fatal signal: `Received signal 4. Backtrace:`, then one line per frame, `0x55c5…, function at /path/File.swift:66`
/// where it could name it (an inlined function and its caller on two lines with one address), `0x… at file:line` where
/// it found a line and no function, and a bare `0x…` where it found neither. The log names no images: bare frames
/// resolve with `-o` and `-l`.
struct SwiftBacktracePackageParser {
    static let marker = "Received signal "

    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains { isHeader($0.text) }
    }

    private static func isHeader(_ text: String) -> Bool {
        text.hasPrefix(marker) && text.hasSuffix("Backtrace:")
    }

    /// One frame line: its address, and what the package said of it: `0x…`, `0x…, function`, `0x…, function at
    /// file:line`, or `0x…at file:line` (libbacktrace found the line but no function: a C library's frame).
    static func frame(in text: String) -> (address: UInt64, function: String?, hasLocation: Bool)? {
        guard text.hasPrefix("0x") else { return nil }
        let end = text.firstIndex { $0 == "," || $0 == " " } ?? text.endIndex
        guard let address = HexNumber.parse(Substring(text[..<end])) else { return nil }
        guard end < text.endIndex else { return (address, nil, false) }
        if text[end...].hasPrefix(" at ") { return (address, nil, true) }
        guard text[end] == "," else { return nil }
        let rest = text[text.index(after: end)...].drop { $0 == " " }
        guard let at = rest.lastRange(of: " at ") else { return (address, String(rest), false) }
        return (address, String(rest[..<at.lowerBound]), true)
    }

    /// Adds the stacks after each `Received signal N. Backtrace:` line to `report`.
    static func appendStacks(to report: inout CrashReport) {
        var stacks = StackCollector()
        var inTrace = false
        var previousAddress: UInt64?
        for (number, line) in report.lines.enumerated() {
            let text = line.text
            if isHeader(text) {
                stacks.close(into: &report)
                stacks.noteText(text)
                inTrace = true
                if report.exception == nil {
                    let signal = text.dropFirst(marker.count).prefix { $0 != "." }
                    report.exception = CrashReport.Exception(type: "signal \(signal)", message: text)
                }
                continue
            }
            guard inTrace else { continue }
            guard let parsed = frame(in: text) else {
                if !text.trimmingWhitespace.isEmpty { inTrace = false; stacks.close(into: &report) }
                continue
            }
            // An inlined function and the one it was inlined into share an address: one frame.
            if parsed.address == previousAddress, parsed.hasLocation { continue }
            previousAddress = parsed.address
            // libbacktrace gives each caller's return address less one already (and the instruction a signal
            // interrupted as it is): every address is looked up as printed.
            var frame = CrashFrame(
                index: stacks.current.count, address: parsed.address,
                addressKind: stacks.current.isEmpty ? .programCounter : .adjustedReturnAddress,
                image: nil, imageOffset: nil, symbolInLog: parsed.function, lineNumber: number, lineStyle: .glibc)
            frame.isSymbolicatedInLog = parsed.hasLocation
            stacks.append(frame)
        }
        stacks.close(into: &report)
    }
}
