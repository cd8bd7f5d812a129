import CrashLogs
import Foundation
import TestSupport
import Testing

/// Every log of the shared corpus (`../shared/corpus` beside the checkout, read in place: most of it may not be copied
/// here), as a user would paste it: read as the format of its folder, with frames where it has frame lines (the check
/// `make corpus` runs on the release binary, here on the library). The logs this version does not read yet are listed
/// with why; the test fails when one of them starts to pass, so the list only shrinks.
@Suite("Shared corpus")
struct SharedCorpusTests {
    static let corpus = Fixtures.packageRoot.appendingPathComponent("../shared/corpus").standardizedFileURL
    /// Whether the corpus is beside the checkout: a clean clone without it skips these tests, saying why.
    static let isPresent = FileManager.default.fileExists(atPath: corpus.path)
    static let absence: Comment = "../shared/corpus is not beside the checkout: its logs are not checked"

    /// Not read yet, and why.
    static let notYetRead: [String: String] = [:]

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
    static let frameLine = try! NSRegularExpression(
        pattern: #"^\W{0,40}#?\d{1,3}\s(.*\b0x[0-9a-fA-F]{4,}|.* in \S+ at \S)"#,
        options: [.anchorsMatchLines])

    static func problem(_ log: String) -> String? {
        let folder = String(log.prefix { $0 != "/" })
        guard let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(log).path) else {
            return "unreadable"
        }
        let report: CrashReport
        do { report = try CrashLogParser.parse(Array(data), source: log) } catch { return error.description }
        let expected = formats[folder] ?? CrashLogFormat(rawValue: folder).map { [$0] } ?? []
        guard expected.contains(report.format) else { return "read as \(report.format.rawValue)" }
        let text = String(decoding: data, as: UTF8.self)
        let hasFrameLines = frameLine.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        if hasFrameLines, report.threads.allSatisfy({ $0.frames.isEmpty }) { return "no frames" }
        return nil
    }

    @Test(.enabled(if: isPresent, absence)) func everyLogIsReadAsItsFormat() throws {
        try #require(!Self.logs.isEmpty, "the shared corpus is not at \(Self.corpus.path)")
        // The corpus holds 99 logs today: fewer found means a folder went missing, not that fewer need reading.
        #expect(Self.logs.filter { !$0.hasSuffix(".md") }.count >= 99)
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

    /// Every `frame #N: 0x…` line of the corpus's lldb sessions is a frame, with that address: pasted through Markdown,
    /// lldb's `*` current-frame mark becomes a list bullet (`- frame #2: …`), and that frame was lost.
    @Test(.enabled(if: isPresent, absence)) func everyLLDBFrameLineIsAFrame() throws {
        let sessions = Self.logs.filter { $0.hasPrefix("debugger-bt/lldb-") }
        #expect(sessions.count >= 5)
        let framePattern = try NSRegularExpression(pattern: #"^[\s*•-]*frame #\d+: 0x([0-9a-fA-F]+)"#)
        for log in sessions {
            let data = try #require(FileManager.default.contents(atPath: Self.corpus.appendingPathComponent(log).path))
            let report = try CrashLogParser.parse(Array(data), source: log)
            let frames = Dictionary(
                report.threads.flatMap(\.frames).map { ($0.lineNumber, $0) }, uniquingKeysWith: { first, _ in first })
            for (number, line) in String(decoding: data, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false
            ).enumerated() {
                let text = String(line)
                guard let match = framePattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                    let hex = Range(match.range(at: 1), in: text)
                else { continue }
                #expect(frames[number]?.address == UInt64(text[hex], radix: 16), "\(log):\(number + 1)")
            }
        }
    }
}
