import CrashLogs
import Foundation
import Testing

@testable import LogFraming

/// Times as logs write them, against Foundation's own reading of the same text.
@Suite("Timestamps in logs")
struct LogTimeTests {
    /// Foundation's answer for `text` written as `format`: the oracle.
    static func foundation(_ text: String, _ format: String) -> Int64? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = format
        return formatter.date(from: text).map { Int64($0.timeIntervalSince1970.rounded(.down)) }
    }

    @Test(arguments: [
        ("2022-10-07 11:31:52.6211 -0700", "yyyy-MM-dd HH:mm:ss.SSSS Z"),
        ("2026-11-25T20:24:14.785647Z", "yyyy-MM-dd'T'HH:mm:ss.SSSSSSX"),
        ("2024-02-29 23:59:59.123456789+0100", "yyyy-MM-dd HH:mm:ss.SSSSSSSSSZ"),
        ("1999-12-31T23:00:00+05:30", "yyyy-MM-dd'T'HH:mm:ssXXXXX"),
        ("2038-01-19 03:14:08 +0000", "yyyy-MM-dd HH:mm:ss Z")
    ])
    func readsAsFoundationDoes(_ text: String, _ format: String) throws {
        let expected = try #require(Self.foundation(text, format))
        #expect(LogTime.parse(Substring(text)) == expected)
    }

    @Test("ISO 8601 printing is the inverse of reading, across eras, leap days and the epoch")
    func printsWhatItReads() {
        for seconds: Int64 in [0, 951_782_400, 1_709_251_199, 4_102_444_800, -86_400, 1_764_100_000] {
            let text = LogTime.iso8601(seconds)
            #expect(LogTime.parse(Substring(text)) == seconds, "\(seconds) → \(text)")
        }
    }

    @Test("Found in the fields each format gives it, and in a logger's prefix")
    func foundInReports() throws {
        let logs: [(CrashLogFormat, String)] = [
            (.appleCrash, "Process: App [1]\nDate/Time:             2022-10-07 11:31:52.6211 -0700\n"),
            (.appleIPS, "{\"app_name\":\"App\",\"timestamp\":\"2022-10-07 11:31:52.00 -0700\"}\n"),
            (.androidTombstone, "Build fingerprint: 'x'\nTimestamp: 2022-10-07 11:31:52.123456789-0700\n")
        ]
        for (format, log) in logs {
            let report = CrashReport(
                format: format, exception: nil, threads: [], images: [], lines: LogLine.split(Array(log.utf8)))
            #expect(report.time == 1_665_167_512, "\(log)")
            // Each field is its format's: a glibc trace's text that happens to say `Date/Time:` gives no time.
            let other = CrashReport(
                format: .glibcBacktrace, exception: nil, threads: [], images: [], lines: report.lines)
            #expect(other.time == nil, "\(log)")
        }
        // A logger's prefix (docker, kubectl --timestamps), taken off the lines by the parser.
        let trace =
            "tally: caught signal 11 (Segmentation fault)\nBacktrace:\n./tally(+0x11ef)[0x5608588881ef]\n./tally(+0x1249)[0x560858888249]\n"
        let prefixed = trace.split(separator: "\n").map { "2022-10-07T18:31:52.000000000Z " + $0 + "\n" }.joined()
        let parsed = try CrashLogParser.parseAll(Array(prefixed.utf8), source: "prefixed")
        #expect(parsed.first?.time == 1_665_167_512)
        // The objects a JSON-lines logger wrote the lines as: docker's, a shipper's, journald's.
        for object in [
            #"{"log":"LINE\n","stream":"stderr","time":"2022-10-07T18:31:52.5Z"}"#,
            #"{"@timestamp":"2022-10-07T18:31:52Z","message":"LINE","n":{"a":1}}"#,
            #"{"__REALTIME_TIMESTAMP":"1665167512123456","MESSAGE":"LINE"}"#
        ] {
            let lines = trace.split(separator: "\n").map {
                object.replacingOccurrences(of: "LINE", with: String($0)) + "\n"
            }.joined()
            let parsed = try CrashLogParser.parseAll(Array(lines.utf8), source: "json")
            #expect(parsed.first?.lines.first?.envelope != nil, "\(object)")
            #expect(parsed.first?.time == 1_665_167_512, "\(object)")
        }
        let none = CrashReport(
            format: .glibcBacktrace, exception: nil, threads: [], images: [],
            lines: LogLine.split(Array("Uptime: 12:00:01\nno date here 2022-13-07 11:31:52\n".utf8)))
        #expect(none.time == nil)
    }
}
