import LogFraming

/// Parses Swift's older runtime traces (Linux, Swift 5.x): `Fatal error: …` or `Assertion failed: …`, then
/// `Current stack trace:` and `N    image    0xaddr symbol + off` frames, where the address is the symbol's, and
/// `<unavailable> + N` frames, where it is the frame's own and N its offset from the image's base.
struct SwiftFatalParser {
    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains { $0.text.hasPrefix("Current stack trace:") || isRuntimeFailure($0.text) }
    }

    static let failureKinds = ["Fatal error: ", "Assertion failed: ", "Precondition failed: "]
    /// The lines that state a failure, the first found in a report giving its exception.
    private static let exceptionMarkers = failureKinds + ["Unexpectedly found nil"]

    /// The runtime's failure line, which names where it failed: `Fatal error: MESSAGE: file F.swift, line 3` (Swift 5.2
    /// and before) or `F.swift:3: Fatal error: MESSAGE`. A report of one, even without a trace after it.
    static func isRuntimeFailure(_ text: String) -> Bool {
        // Every kind ends in `r: ` or `d: `: one pass over the bytes rules out most lines (every line of a log with a
        // failure marker comes here) before three searches.
        guard mayHoldFailureKind(text.utf8.span) else { return false }
        for kind in failureKinds {
            guard let range = text.range(of: kind) else { continue }
            if text[range.upperBound...].includes(": file "), text.includes(", line ") { return true }
            let before = text[..<range.lowerBound]
            // `path:LINE: ` just before the kind.
            if before.hasSuffix(": "), let colon = before.dropLast(2).lastIndex(of: ":"),
                !before[before.index(after: colon)..<before.index(before.endIndex, offsetBy: -2)].isEmpty,
                before[before.index(after: colon)..<before.index(before.endIndex, offsetBy: -2)].allSatisfy(
                    \.isASCIIDigit)
            {
                return true
            }
        }
        return false
    }

    /// Whether `text` holds a `: ` after an `r` or a `d`, as each of ``failureKinds`` ends.
    static func mayHoldFailureKind(_ bytes: Span<UInt8>) -> Bool {
        guard bytes.count >= 4 else { return false }
        for offset in 1..<bytes.count - 1
        where bytes[offset] == UInt8(ascii: ":") && bytes[offset + 1] == UInt8(ascii: " ")
            && (bytes[offset - 1] == UInt8(ascii: "r") || bytes[offset - 1] == UInt8(ascii: "d"))
        {
            return true
        }
        return false
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .swiftFatal, exception: nil, threads: [], images: [], lines: lines)
        appendStacks(to: &report)
        return report
    }

    /// Adds the `Current stack trace:` stacks of `report`'s lines (a sanitizer report may carry one too).
    static func appendStacks(to report: inout CrashReport) {
        let lines = report.lines
        var stacks = StackCollector()
        var inTrace = false
        for (number, line) in lines.enumerated() {
            let text = line.text
            if report.exception == nil {
                for marker in exceptionMarkers {
                    guard let range = text.range(of: marker) else { continue }
                    let kind = String(marker.prefix { $0 != ":" })
                    report.exception = CrashReport.Exception(
                        type: kind.trimmingWhitespace, message: String(text[range.lowerBound...]))
                    break
                }
            }
            if text.hasPrefix("Current stack trace:") {
                stacks.close(into: &report)
                stacks.noteText("Current stack trace")
                inTrace = true
                continue
            }
            guard inTrace else { continue }
            guard let parsed = AppleCrashParser.frame(in: text) else {
                if !text.trimmingWhitespace.isEmpty { inTrace = false; stacks.close(into: &report) }
                continue
            }
            let image = report.imageIndex(named: parsed.image, path: nil)
            let unavailable = parsed.symbol == "<unavailable>"
            // `0x… symbol + N` gives the symbol's address and the offset into it; `0x… <unavailable> + N`, the
            // frame's own address and its offset from the image's base.
            let address = unavailable ? parsed.address : parsed.address &+ (parsed.offset ?? 0)
            stacks.append(
                CrashFrame(
                    index: parsed.index, address: address,
                    addressKind: parsed.index == 0 ? .programCounter : .returnAddress,
                    image: image, imageOffset: unavailable ? parsed.offset : nil,
                    symbolInLog: unavailable ? nil : parsed.symbol,
                    symbolOffsetInLog: unavailable ? nil : parsed.offset, lineNumber: number,
                    lineStyle: parsed.style(in: text)))
        }
        stacks.close(into: &report)
    }
}
