import LogFraming
import PostmortemCore

/// The Swift runtime's backtracer (`SWIFT_BACKTRACE`): its text report, or its JSON one.
enum SwiftBacktraceFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.swiftBacktrace
    static let timeFields = ["\"timestamp\""]
    static let markers = ["Program crashed: ", "crashReport"]

    static func recognizes(_ lines: [LogLine]) -> Bool { SwiftBacktraceParser.recognizes(lines) }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        if let line = SwiftBacktraceJSONParser.reportLine(in: lines) {
            return try SwiftBacktraceJSONParser.parse(lines, bytes: bytes, reportLine: line, source: source)
        }
        return SwiftBacktraceParser.parse(lines)
    }

    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        lines[number].textContains("Program crashed: ")
    }

    /// The backtracer's report begins with the runtime's failure line and its `*** Signal N: Backtracing` line.
    static func reportStarts(in lines: [LogLine]) -> [Int] {
        lines.indices.filter { startsReport(at: $0, in: lines) }.map { start in
            var first = start
            while first > 0 {
                let previous = lines[first - 1].text
                guard
                    previous.trimmingWhitespace.isEmpty || previous.hasPrefix("*** Signal ")
                        || SwiftFatalParser.isRuntimeFailure(previous)
                else { break }
                first -= 1
            }
            while first < start, lines[first].text.trimmingWhitespace.isEmpty { first += 1 }
            return first
        }
    }

    /// Threads laid out as a whole, as the backtracer lays them out (their columns follow their widest frame).
    static func laidOutLines(of report: CrashReport) -> [Int: [String]] { SwiftBacktraceLayout.lines(of: report) }

    /// As the backtracer writes its own symbolicated JSON: the mangled name in `symbol`, the readable one with its
    /// offset in `description`, the offset from the call for a return address.
    static func symbolicatedJSONObjects(
        _ frame: CrashFrame, kept: [(key: String, value: JSONNode)], members: [(key: String, value: JSONNode)],
        bytes: [UInt8], report: CrashReport
    ) -> [String] {
        let keptFields = kept.map {
            JSONText.quote($0.key) + ": " + String(decoding: bytes[$0.value.span], as: UTF8.self)
        }
        // An async resume point's description, like an inlined frame's, has no offset.
        let isResumePoint = members.contains { $0.key == "kind" && $0.value.value == .string("asyncResumePoint") }
        let image = frame.image.map { report.images[$0].name }
        return frame.symbols.map { symbol -> String in
            var fields = keptFields
            if symbol.isInlined { fields.append("\"inlined\": true") }
            if symbol.isThunk {
                fields.append("\"thunk\": true")
            } else if SwiftBacktraceLayout.isSystem(symbol, image: image) {
                fields.append("\"system\": true")
            }
            fields.append("\"symbol\": " + JSONText.quote(symbol.linkageName ?? symbol.function ?? "<unknown>"))
            let offset = symbol.isInlined ? 0 : SwiftBacktraceLayout.offset(of: frame) ?? 0
            fields.append("\"offset\": \(offset)")
            let name = symbol.function ?? symbol.linkageName ?? "<unknown>"
            fields.append(
                "\"description\": " + JSONText.quote(symbol.isInlined || isResumePoint ? name : "\(name) + \(offset)"))
            if let image { fields.append("\"image\": " + JSONText.quote(image)) }
            if let file = SwiftBacktraceLayout.sourceFile(of: symbol) {
                fields.append(
                    "\"sourceLocation\": { \"file\": \(JSONText.quote(file)), \"line\": \(symbol.line), "
                        + "\"column\": \(symbol.column) }")
            }
            return "{ " + fields.joined(separator: ", ") + " }"
        }
    }
}
