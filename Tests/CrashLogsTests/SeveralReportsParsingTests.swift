import Foundation
import LogFraming
import TestSupport
import Testing

@testable import CrashLogs

/// Where a file of several reports is cut, and where it is not: one process's traces stay one report, two processes'
/// never share images, a header cut off its stack by another format's line stays with it.
@Suite("Several reports in one log")
struct SeveralReportsParsingTests {
    static func log(_ paths: String..., before: String = "") throws -> [UInt8] {
        Array(before.utf8)
            + (try paths.flatMap { try Array(Data(contentsOf: Fixtures.packageRoot.appendingPathComponent($0))) })
    }

    static let glibcTrace = "SampleCrashes/linux-groups/null-plain-aslr-on.txt"
    static let otherRunsTrace = "SampleCrashes/linux-groups/limit-plain-aslr-on.txt"

    @Test("Two processes' glibc traces are two reports, each placing libc where its own process had it")
    func twoProcessesAreTwoReports() throws {
        let reports = try CrashLogParser.parseAll(Self.log(Self.glibcTrace, Self.otherRunsTrace), source: "two")
        let alone = try [Self.glibcTrace, Self.otherRunsTrace].map {
            try CrashLogParser.parse(Self.log($0), source: $0)
        }
        #expect(reports.count == 2)
        for (report, single) in zip(reports, alone) {
            #expect(report.frameCount == single.frameCount)
            #expect(report.loadAddressesByImage == single.loadAddressesByImage)
            #expect(report.loadAddressesByImage["libc.so.6"] != nil)
        }
        #expect(reports[0].loadAddressesByImage["libc.so.6"] != reports[1].loadAddressesByImage["libc.so.6"])
    }

    @Test("The same process's stacks (images at the same addresses) stay one report of two threads")
    func oneProcessStaysOneReport() throws {
        let reports = try CrashLogParser.parseAll(Self.log(Self.glibcTrace, Self.glibcTrace), source: "twice")
        #expect(reports.count == 1)
        #expect(reports.first?.threads.count == 2)
    }

    @Test("Thousands of one process's traces are one report of as many threads, every line kept")
    func manyTracesOfOneProcess() throws {
        let one = try Self.log(Self.glibcTrace)
        let copies = 2_000
        let reports = try CrashLogParser.parseAll(
            Array([[UInt8]](repeating: one, count: copies).joined()), source: "many")
        #expect(reports.count == 1)
        #expect(reports.first?.threads.count == copies)
        #expect(reports.first?.lines.count == LogLine.split(one).count * copies)
        #expect(reports.first?.threads.filter(\.crashed).count == 1)
    }

    @Test("A program's own trace and the sanitizer's report of the abort it ended in are one crash")
    func aTraceAndItsSanitizerReportAreOne() throws {
        let path = "Tests/CrashLogsTests/Corpus/glibc-backtrace/v8-fatal-error-asan-interceptor-backtrace.txt"
        let whole = try CrashLogParser.parse(Self.log(path), source: path)
        let reports = try CrashLogParser.parseAll(Self.log(path), source: path)
        #expect(reports.count == 1)
        #expect(reports.first?.frameCount == whole.frameCount)
        #expect(reports.first?.format == .glibcBacktrace)
    }

    @Test("A sanitizer's report and another process's glibc trace, in either order, are two reports")
    func aSanitizerReportAndAnotherProcessesTrace() throws {
        let asan = "SampleCrashes/linux-groups/null-asan.txt"
        for order in [[asan, Self.glibcTrace], [Self.glibcTrace, asan]] {
            let reports = try CrashLogParser.parseAll(Self.log(order[0], order[1]), source: "pair")
            #expect(reports.map(\.format) == order.map { $0 == asan ? .sanitizer : .glibcBacktrace })
            let glibc = try #require(reports.first { $0.format == .glibcBacktrace })
            let single = try CrashLogParser.parse(Self.log(Self.glibcTrace), source: "alone")
            #expect(glibc.loadAddressesByImage == single.loadAddressesByImage)
        }
    }

    @Test("Sanitizer reports one after the other are each the report it is alone, read once")
    func aSeriesOfSanitizerReports() throws {
        // Reports of the sanitizers that begin with their first line (others begin with a program's output, which a
        // series reads with the report before it).
        let paths = [
            "SampleCrashes/linux-c-asan/asan.txt", "SampleCrashes/linux-groups/null-asan.txt",
            "Tests/CrashLogsTests/Corpus/sanitizer/asan-android-arm32-heap-use-after-free-blank-lines.txt",
            "Tests/CrashLogsTests/Corpus/sanitizer/asan-linux-x86_64-heap-use-after-free-chrome-3-stacks.txt",
            "Tests/CrashLogsTests/Corpus/sanitizer/hwasan-arm64-tag-mismatch-short.txt",
            "Tests/CrashLogsTests/Corpus/sanitizer/msan-linux-use-of-uninitialized-value-with-origins.txt"
        ]
        var alone: [CrashReport] = []
        var bytes: [UInt8] = []
        for path in paths {
            var log = try Self.log(path)
            // From its report's first line (the MSan log begins with a browser's output).
            let text = String(decoding: log, as: UTF8.self)
            if let start = text.range(of: "==18306== WARNING") {
                log = Array(text[start.lowerBound...].utf8)
            }
            let reports = try CrashLogParser.parseAll(log, source: path)
            try #require(reports.count == 1 && reports[0].format == .sanitizer && reports[0].frameCount > 0, "\(path)")
            alone.append(reports[0])
            bytes += log
            if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        }
        // Three rounds: the same reports again and again, as the log of a fuzzer's many runs holds them.
        let series = try CrashLogParser.parseAll(bytes + bytes + bytes, source: "series")
        #expect(series.count == alone.count * 3, "\(series.map { $0.lines.first?.text ?? "" })")
        for (index, report) in series.enumerated() {
            let expected = alone[index % alone.count]
            #expect(report.format == expected.format, "report \(index)")
            #expect(report.exception == expected.exception, "report \(index)")
            #expect(
                report.threads.map { $0.frames.map(\.address) } == expected.threads.map { $0.frames.map(\.address) },
                "report \(index)")
        }
        // Every line kept, in order (a separator line before a report's first line goes with the report before it).
        #expect(series.flatMap(\.lines).map(\.text) == LogLine.split(bytes + bytes + bytes).map(\.text))
    }

    @Test("An Apple report with text above it and an uncaught exception's line inside stays one report")
    func aHeaderIsNotCutOffItsStack() throws {
        let path = "SampleCrashes/apple-objc-arm64/App.crash"
        let reports = try CrashLogParser.parseAll(Self.log(path, before: "$ cat App.crash\n"), source: path)
        let whole = try CrashLogParser.parse(Self.log(path), source: path)
        #expect(reports.count == 1)
        #expect(reports.first?.frameCount == whole.frameCount)
        #expect(reports.first?.exception == whole.exception)
    }

    @Test("Lines that start a report but hold none stay with the trace before them, and a warning names them")
    func aStartWithNothingAfterItIsNamed() throws {
        let reports = try CrashLogParser.parseAll(
            Self.log(Self.glibcTrace) + Array("Incident Identifier: 5A1A\nHardware Model: iPhone12,1\n".utf8),
            source: "t")
        let report = try #require(reports.first)
        #expect(reports.count == 1)
        #expect(report.format == .glibcBacktrace)
        #expect(report.frameCount == 8)
        #expect(report.lines.count == 12)
        #expect(report.warnings.contains { $0.hasPrefix("lines 11–12 look like the start of a report (apple-crash)") })
    }
}
