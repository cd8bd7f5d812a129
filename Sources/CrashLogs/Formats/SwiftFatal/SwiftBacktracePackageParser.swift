/// Parses what the swift-backtrace package (used by Swift servers before the runtime had a backtracer) prints on a
/// fatal signal: `Received signal 4. Backtrace:`, then one line per frame, `0x55c5…, function at /path/File.swift:66`
/// where it could name it (an inlined function and its caller on two lines with one address) and a bare `0x…` where
/// it could not. The log names no images: bare frames resolve with `-o` and `-l`.
struct SwiftBacktracePackageParser {
    static let marker = "Received signal "

    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains { isHeader($0.text) }
    }

    private static func isHeader(_ text: String) -> Bool {
        text.hasPrefix(marker) && text.hasSuffix("Backtrace:")
    }

    /// One frame line: its address, and what the package said of it.
    static func frame(in text: String) -> (address: UInt64, function: String?, hasLocation: Bool)? {
        guard text.hasPrefix("0x") else { return nil }
        let comma = text.firstIndex(of: ",") ?? text.endIndex
        guard let address = HexNumber.parse(Substring(text[..<comma])) else { return nil }
        guard comma < text.endIndex else { return (address, nil, false) }
        let rest = text[text.index(after: comma)...].drop { $0 == " " }
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
            var frame = CrashFrame(index: stacks.current.count, address: parsed.address,
                                   addressKind: stacks.current.isEmpty ? .programCounter : .returnAddress,
                                   image: nil, imageOffset: nil, symbolInLog: parsed.function, lineNumber: number, lineStyle: .glibc)
            frame.isSymbolicatedInLog = parsed.hasLocation
            stacks.append(frame)
        }
        stacks.close(into: &report)
    }
}
