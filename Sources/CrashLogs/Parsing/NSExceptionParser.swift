/// Parses uncaught Objective-C exception logs: `*** Terminating app due to uncaught exception 'Name', reason: '…'`
/// and the `*** First throw call stack:` that follows, as a parenthesised list of return addresses
/// (`(0x18278ae38 0x181deff80 …)`, on one line or several; the old `Stack: (` list in decimal) or as
/// `callStackSymbols` lines (`0   CoreFoundation   0x1a… __exceptionPreprocess + 220`).
struct NSExceptionParser {
    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains { line in
            let text = line.text
            return text.includes("Terminating app due to uncaught exception") || text.includes("First throw call stack")
                || text.includes("Call stack at first throw")
        }
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .nsException, exception: nil, threads: [], images: [], lines: lines)
        var frames: [CrashFrame] = []
        var inList = false
        var listIsDecimal = false
        var expectList = false
        for (number, line) in lines.enumerated() {
            let text = line.text
            if report.exception == nil, let exception = exception(in: text) { report.exception = exception }
            if text.includes("First throw call stack") || text.includes("Call stack at first throw") || text.hasSuffix("Stack: (") {
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
                let image = report.imageIndex(named: parsed.image, path: nil)
                frames.append(CrashFrame(index: parsed.index, address: parsed.address, addressKind: .returnAddress, image: image,
                                         imageOffset: nil, symbolInLog: parsed.symbol, symbolOffsetInLog: parsed.offset, lineNumber: number))
            } else {
                for word in trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" || $0 == ")" || $0 == "," }) {
                    let address = listIsDecimal ? UInt64(word) : HexNumber.parse(word)
                    guard let address else { continue }
                    frames.append(CrashFrame(index: frames.count, address: address, addressKind: .returnAddress, image: nil,
                                             imageOffset: nil, lineNumber: number))
                }
            }
            if trimmed.hasSuffix(")") {
                inList = false
                expectList = false
                if !frames.isEmpty {
                    report.threads.append(CrashThread(index: report.threads.count, name: "First throw call stack", crashed: report.threads.isEmpty, frames: frames))
                }
                frames = []
            }
        }
        if !frames.isEmpty {
            report.warnings.append("the call stack list is not closed; the log may be cut short")
            report.threads.append(CrashThread(index: report.threads.count, name: "First throw call stack", crashed: report.threads.isEmpty, frames: frames))
        }
        return report
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
