import CrashLogs
import Foundation
import Testing
import TestSupport

/// Every log of the shared corpus (`../shared/corpus` beside the checkout, read in place: most of it may not be copied
/// here), as a user would paste it: read as the format of its folder, with frames where it has frame lines (the check
/// `make corpus` runs on the release binary, here on the library). The logs this version does not read yet are listed
/// with why; the test fails when one of them starts to pass, so the list only shrinks.
@Suite("Shared corpus")
struct SharedCorpusTests {
    static let corpus = Fixtures.packageRoot.appendingPathComponent("../shared/corpus").standardizedFileURL

    /// Not read yet, and why.
    static let notYetRead: [String: String] = [
        "android-tombstone/logcat-interleaved-android12-arm64-hwasan-tombstone-cmdline-timestamp.txt":
            "a tombstone interleaved with other processes' logcat lines",
        "android-tombstone/logcat-interleaved-android6-arm-chrome-oom-module-plus-offset-frames.txt":
            "a tombstone interleaved with other processes' logcat lines",
        "android-tombstone/logcat-interleaved-android6-x86-mediaserver-abort-symbolized.txt":
            "a tombstone interleaved with other processes' logcat lines",
        "apple-crash/ios-16.0-arm64-swift-assertion-with-ips-json-header-line.crash": "an .ips header line before a .crash body",
        "apple-ips/ios-16.2-kernel-panic-bug-type-151-force-reset.ips": "a kernel panic's panic string and backtrace",
        "swift-backtrace/swift5.9-macos-friendly-interactive-async-frames.txt": "the backtracer's friendly frames without addresses",
        "swift-backtrace/swift5.9-macos-friendly-interactive-sync-with-source-snippets.txt": "the backtracer's friendly frames without addresses",
    ]

    static let formats: [String: Set<CrashLogFormat>] = ["debugger-bt": [.gdbBacktrace, .lldbBacktrace]]

    static let logs: [String] = {
        let root = corpus.path
        var logs: [String] = []
        for folder in ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
            logs += names.sorted().map { folder + "/" + $0 }
        }
        return logs
    }()

    /// A line that looks like a numbered frame: with an address, or a function and its source.
    static let frameLine = try! NSRegularExpression(pattern: #"^\W{0,40}#?\d{1,3}\s(.*\b0x[0-9a-fA-F]{4,}|.* in \S+ at \S)"#,
                                                    options: [.anchorsMatchLines])

    static func problem(_ log: String) -> String? {
        let folder = String(log.prefix { $0 != "/" })
        guard let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(log).path) else { return "unreadable" }
        let report: CrashReport
        do { report = try CrashLogParser.parse(Array(data), source: log) } catch { return error.description }
        let expected = formats[folder] ?? CrashLogFormat(rawValue: folder).map { [$0] } ?? []
        guard expected.contains(report.format) else { return "read as \(report.format.rawValue)" }
        let text = String(decoding: data, as: UTF8.self)
        let hasFrameLines = frameLine.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        if hasFrameLines, report.threads.allSatisfy({ $0.frames.isEmpty }) { return "no frames" }
        return nil
    }

    @Test func everyLogIsReadAsItsFormat() throws {
        try #require(!Self.logs.isEmpty, "the shared corpus is not at \(Self.corpus.path)")
        var read = 0
        for log in Self.logs where !log.hasSuffix(".md") {
            let problem = Self.problem(log)
            if let reason = Self.notYetRead[log] {
                #expect(problem != nil, "\(log) is read now (it was listed: \(reason)); take it off the list")
            } else {
                #expect(problem == nil, "\(log): \(problem ?? "")")
                read += 1
            }
        }
        print("shared corpus: \(read) of \(Self.logs.filter { !$0.hasSuffix(".md") }.count) logs read as their format")
    }
}
