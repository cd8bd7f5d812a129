import CrashLogs
import FuzzSupport

/// Format detection, every parser (the detected one, then each in turn), and both renderers; printing a
/// parsed log back must give its input.
func fuzzCrashLogs(_ bytes: [UInt8]) {
    guard let report = try? CrashLogParser.parse(bytes, source: "fuzz") else { return }
    let text = ReportTextRenderer().render(report)
    precondition(text == bytes, "printing the log back changed it")
    _ = ReportJSONRenderer().render(report)
    for format in CrashLogFormat.allCases {
        if let forced = try? CrashLogParser.parse(bytes, source: "fuzz", format: format) {
            _ = ReportJSONRenderer().render(forced)
        }
    }
}

@main enum Entry {
    static func main() {
        FuzzEntry.main(
            fuzzer: { data, size in
                fuzzCrashLogs(FuzzEntry.bytes(data, size))
                return 0
            }, replay: fuzzCrashLogs)
    }
}
