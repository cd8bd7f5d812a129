import Foundation
import TestSupport
import Testing

/// The kind of error a sanitizer report names, as the sanitizers write it: their SUMMARY line's (`bad-free`,
/// `heap-use-after-free`, ThreadSanitizer's `data race`), else the words of their first line before what they
/// concern (LeakSanitizer's `detected memory leaks`, `ABRT` of `ABRT on unknown address`), else UBSan's
/// `runtime error`. Worked out here by patterns of the test's own, for every sanitizer log of the samples and the
/// corpus (the shared corpus's sanitizer logs are all Apache-2.0, copied into `Tests/CrashLogsTests/Corpus`).
@Suite("Sanitizer reports: the kind of error")
struct SanitizerKindTests {
    static let logs: [String] = {
        var logs = [
            "SampleCrashes/linux-c-asan/asan.txt",
            "Tests/CrashLogsTests/Corpus/swift-fatal/swift-linux-libfuzzer-assertion-failed-current-stack-trace-unavailable-frames.txt"
        ]
        let folder = "Tests/CrashLogsTests/Corpus/sanitizer"
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot.appendingPathComponent(folder).path))
            ?? []
        return logs + names.filter { $0.hasSuffix(".txt") }.sorted().map { folder + "/" + $0 }
    }()

    /// The kind the report's own lines give, by regular expressions.
    static func expectedKind(_ text: String) throws -> String? {
        func first(_ pattern: String) throws -> String? {
            let expression = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
            guard let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range(at: 1), in: text)
            else { return nil }
            return String(text[range])
        }
        if let kind = try first(#"SUMMARY: ThreadSanitizer: ([a-z][a-z -]*[a-z]) (?:\S*[/:(]|in )"#) { return kind }
        if let kind = try first(#"SUMMARY: \w*Sanitizer: ([A-Za-z][\w-]*)"#) { return kind }
        if let kind = try first(
            #"(?:ERROR|WARNING): \w*Sanitizer: ([A-Za-z][\w-]*(?: [a-z][\w-]*)*?)(?: on | at | in | of | \(|:|$)"#)
        {
            return kind
        }
        return text.contains(": runtime error: ") ? "runtime error" : nil
    }

    @Test func everySanitizerLogNamesItsKind() throws {
        #expect(Self.logs.count == 15, "the committed sanitizer logs were not all found")
        for log in Self.logs {
            let text = try String(contentsOfFile: Paths.packageRoot.appendingPathComponent(log).path, encoding: .utf8)
            let expected = try #require(try Self.expectedKind(text), "\(log) names a kind")
            let result = try Command.postmortem(["symbolicate", "--parse-only", "--json", log])
            let line = try #require(result.outputLines.first, "\(log): \(result.standardError)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let exception = report["exception"] as? [String: Any]
            #expect(exception?["type"] as? String == expected, "\(log)")
        }
    }
}
