import Foundation
import LogFraming
import PostmortemCore
import Testing

@testable import CrashLogs

/// A report of every line of a log no logger framed keeps the bytes it was read from, and is printed back as them when
/// nothing in it resolved; a report whose lines change, or whose log came framed, is printed from its lines.
@Suite("Reports printed back as read")
struct BytesAsReadTests {
    /// Every committed log that reads as one report keeps its bytes, and its lines joined are those bytes.
    @Test func aReportOfAWholeLogKeepsTheBytesItsLinesJoinTo() throws {
        var kept = 0
        for format in ["apple-crash", "android-tombstone", "sanitizer", "gdb-bt", "glibc-backtrace"] {
            for path in CorpusParsingTests.files(format) {
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                let reports = try CrashLogParser.parseAll(bytes, source: path)
                guard reports.count == 1, let report = reports.first else { continue }
                let asRead = try #require(report.bytesAsRead, "\(path)")
                #expect(asRead == bytes && LogLine.joinedWholeBytes(report.lines) == bytes, "\(path)")
                #expect(ReportTextRenderer().render(report) == bytes, "\(path)")
                kept += 1
            }
        }
        #expect(kept > 20, "too few committed logs read as one report")
    }

    @Test func changedLinesAreNotPrintedAsTheBytesTheyWereReadFrom() throws {
        let path = try #require(CorpusParsingTests.files("glibc-backtrace").first)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var report = try #require(try CrashLogParser.parseAll(bytes, source: path).first)
        report.lines.removeLast()
        #expect(report.bytesAsRead == nil)
        #expect(ReportTextRenderer().render(report) == LogLine.joinedWholeBytes(report.lines))
        #expect(ReportTextRenderer().render(report) != bytes)
    }

    /// A log behind a logger's prefix is printed from its lines (prefix put back), not from bytes of its own.
    @Test func aFramedLogKeepsNoBytesOfItsOwn() throws {
        let path = try #require(CorpusParsingTests.files("glibc-backtrace").first)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let prefixed = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { number, line in
            line.isEmpty ? "" : "2026-11-25T10:00:\(String(format: "%02d", number % 60)).123Z app[42]: \(line)"
        }.joined(separator: "\n")
        let bytes = Array(prefixed.utf8)
        let reports = try CrashLogParser.parseAll(bytes, source: "prefixed.log")
        #expect(reports.allSatisfy { $0.bytesAsRead == nil })
        #expect(reports.flatMap { ReportTextRenderer().render($0) } == bytes)
    }
}
