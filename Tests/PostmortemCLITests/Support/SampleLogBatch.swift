import Foundation
import TestSupport
import Testing

/// The sample crash logs (`SampleCrashes/*`), each rewritten by a test (given a logger's prefix, wrapped in JSON
/// objects, …) and symbolicated in one run with all the others: a run per question, not a run per log, since the
/// launches were most of these tests' time. A run over several files prints each file's part after a
/// `==> PATH <==` line; `parts(of:)` splits the output back into each log's part.
struct SampleLogBatch {
    /// A sample log: its folder (which holds the binaries that resolve it) and its file name.
    struct Log: Sendable {
        var folder: String
        var name: String
        var text: String
    }

    /// Every sample log, in a fixed order.
    static let logs: [Log] = {
        let root = Paths.packageRoot.appendingPathComponent("SampleCrashes")
        var logs: [Log] = []
        for folder in ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted() {
            let directory = root.appendingPathComponent(folder)
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
            where name.hasSuffix(".txt") || name.hasSuffix(".crash") || name.hasSuffix(".json") || name == "App.ips" {
                guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else {
                    continue
                }
                logs.append(Log(folder: "SampleCrashes/" + folder, name: name, text: text))
            }
        }
        return logs
    }()

    /// The options every run of a batch shares: no cache, and every sample's folder as a `-d` root.
    static let symbolicate: [String] =
        ["symbolicate", "--no-cache"]
        + Array(Set(logs.map(\.folder))).sorted().flatMap { ["-d", $0] }

    /// The files written, in the order of `logs`.
    let paths: [String]
    /// The folder that holds them.
    let folder: String

    /// Writes `transform(log)` of every sample log into a new folder named after `label`.
    init(_ label: String, _ transform: (Log) -> String = \.text) throws {
        let folder = Fixtures.scratchDirectory(label)
        self.folder = folder
        paths = try Self.logs.enumerated().map { index, log in
            let path = folder + "/\(index)-" + log.name
            try transform(log).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    /// One run over every file of the batch, after `options`, with the batch's folder called `BATCH` in what it
    /// printed (an unresolved frame's reason names where the binary was looked for, beside the log among them).
    func run(_ options: [String]) throws -> CommandResult {
        var result = try Command.postmortem(options + paths)
        result.standardOutput = result.standardOutput.replacingOccurrences(of: folder, with: "BATCH")
        result.standardError = result.standardError.replacingOccurrences(of: folder, with: "BATCH")
        return result
    }

    /// The lines of `output` that belong to each file, in the order of `paths`.
    func parts(of output: CommandResult) throws -> [[String]] {
        var parts: [[String]] = []
        var expected = paths.map { "BATCH/" + ($0 as NSString).lastPathComponent }.makeIterator()
        var next = expected.next()
        for line in output.outputLines {
            if let path = next, line == "==> \(path) <==" {
                parts.append([])
                next = expected.next()
            } else {
                try #require(!parts.isEmpty, "a line before the first file's header: \(line)")
                parts[parts.count - 1].append(line)
            }
        }
        try #require(parts.count == paths.count, "\(parts.count) of \(paths.count) files' parts found in the output")
        return parts
    }

    /// The clean samples, symbolicated once for every test that holds a rewritten batch to them: the JSON reports of
    /// the whole batch, and each log's printed lines.
    static let clean: Result<(json: String, text: [[String]]), any Error> = Result {
        let batch = try SampleLogBatch("clean")
        let json = try batch.run(symbolicate + ["--json"])
        try #require(json.status == 0, "\(json.standardError)")
        return (json.standardOutput, try batch.parts(of: batch.run(symbolicate)))
    }

    /// Where two runs' JSON reports first differ: the report's line and the first characters that differ.
    static func firstDifference(_ left: String, _ right: String) -> String {
        let a = left.split(separator: "\n", omittingEmptySubsequences: false),
            b = right.split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = a.indices.first(where: { $0 < b.count && a[$0] != b[$0] }) else {
            return "\(a.count) against \(b.count) lines"
        }
        let shared = zip(a[index], b[index]).prefix { $0 == $1 }.count
        return
            "report line \(index + 1): …\(a[index].dropFirst(max(0, shared - 40)).prefix(120)) against …\(b[index].dropFirst(max(0, shared - 40)).prefix(120))"
    }
}
