/// Where each report of a log that holds several begins: the line each format starts a report with (a sanitizer's
/// `==PID==ERROR:`, an Apple report's `Incident Identifier:`, a tombstone's `*** *** ***`, systemd-coredump's
/// `Process N (app) … dumped core.`, a Swift runtime's failure line). Lines before the first start belong to the first
/// report. Formats whose reports have no such line (glibc's, whose stacks may be of one crash or of several) give none.
enum ReportBoundaries {
    /// The numbers of the lines that start a report of `format`, in order.
    static func starts(of format: CrashLogFormat, in lines: [LogLine]) -> [Int] {
        let starts = markers(of: format, in: lines)
        guard format == .swiftBacktrace else { return starts }
        // The backtracer's report begins with the runtime's failure line and its `*** Signal N: Backtracing` line.
        return starts.map { start in
            var first = start
            while first > 0 {
                let previous = lines[first - 1].text
                guard previous.trimmingWhitespace.isEmpty || previous.hasPrefix("*** Signal ") || SwiftFatalParser.isRuntimeFailure(previous)
                else { break }
                first -= 1
            }
            while first < start, lines[first].text.trimmingWhitespace.isEmpty { first += 1 }
            return first
        }
    }

    /// The lines that mark a report of `format`.
    private static func markers(of format: CrashLogFormat, in lines: [LogLine]) -> [Int] {
        lines.indices.filter { number in
            let text = lines[number].text
            switch format {
            case .appleCrash:
                // iOS reports start with their incident; macOS ones often with the process.
                if text.hasPrefix("Incident Identifier:") { return true }
                return text.hasPrefix("Process:") && !lines[max(0, number - 12)..<number].contains { $0.text.hasPrefix("Incident Identifier:") }
            case .sanitizer:
                return text.hasPrefix("==") && (text.includes("==ERROR: ") && text.includes("Sanitizer")) || text.hasPrefix("WARNING: ThreadSanitizer:")
            case .swiftBacktrace: return text.includes("Program crashed: ")
            case .swiftFatal:
                guard SwiftFatalParser.isRuntimeFailure(text) || (text.hasPrefix(SwiftBacktracePackageParser.marker) && text.hasSuffix("Backtrace:")) else {
                    return false
                }
                // A failure line right before its own trace header is one report with it.
                return true
            case .androidTombstone: return text.hasPrefix("*** *** *** *** ***")
            case .systemdCoredump: return text.trimmingWhitespace.hasPrefix("Process ") && text.hasSuffix(" dumped core.")
            case .gdbBacktrace: return text.hasPrefix("Program received signal ") || text.hasPrefix("Program terminated with signal ")
            case .nsException: return text.includes("Terminating app due to uncaught exception")
            case .breakpadStackwalk: return text.hasPrefix("Operating system:")
            case .appleIPS, .glibcBacktrace, .lldbBacktrace: return false
            }
        }
    }
}
