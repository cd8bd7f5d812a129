import Foundation
import TestSupport
import Testing

/// Every sample crash log as JSON-lines loggers store it — one object a line, the line of output in one of its fields —
/// read as the log itself and printed back as the objects it came in, every other field as it was.
@Suite("Symbolicate: logs written as JSON lines")
struct JSONLinesLogTests {
    /// One logger's object for the line at `number` holding `line`, and the field the line is in.
    struct Logger: CustomTestStringConvertible, Sendable {
        var name: String
        var field: String
        /// Whether the logger keeps the line's `\n` in the field (docker does).
        var keepsLineEnding: Bool
        var object: @Sendable (Int, String) -> String
        var testDescription: String { name }
    }

    /// A JSON string literal as Go's encoding/json writes it (docker, many shippers): `<`, `>` and `&` escaped too.
    static func goQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "<": result += "\\u003c"
            case ">": result += "\\u003e"
            case "&": result += "\\u0026"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static let loggers: [Logger] = [
        Logger(name: "docker json-file", field: "log", keepsLineEnding: true) { number, line in
            #"{"log":\#(goQuoted(line + "\n")),"stream":"stderr","time":"2026-11-25T10:00:\#(LogPrefixTests.two(number % 60)).\#(123_456_789 + number)Z"}"#
        },
        Logger(name: "journalctl -o json", field: "MESSAGE", keepsLineEnding: false) { number, line in
            #"{"__CURSOR":"s=1;i=\#(number)","__REALTIME_TIMESTAMP":"\#(1_764_064_800_000_000 + number)","PRIORITY":"3","_PID":"4242","SYSLOG_IDENTIFIER":"app","MESSAGE":\#(goQuoted(line))}"#
        },
        Logger(name: "shipper export", field: "message", keepsLineEnding: false) { number, line in
            #"{"@timestamp":"2026-11-25T10:00:00.\#(number)Z","kubernetes":{"pod":{"name":"app-7d9f5c"},"labels":["a","b"]},"message":\#(goQuoted(line)),"offset":\#(number * 80)}"#
        }
    ]

    static func applying(_ logger: Logger, to text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines.enumerated().map { logger.object($0.offset, $0.element) }.joined(separator: "\n") + "\n"
    }

    /// A printed line's object: its message (less the line ending the logger keeps) and its other members as JSON.
    static func opened(_ line: String, logger: Logger) throws -> (message: String, others: String) {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        var message = try #require(object.removeValue(forKey: logger.field) as? String, "no \(logger.field): \(line)")
        if logger.keepsLineEnding {
            #expect(message.hasSuffix("\n"), "\(line)")
            message.removeLast()
        }
        let others = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return (message, String(decoding: others, as: UTF8.self))
    }

    /// Every sample log as the logger stores it, in one run with all the others (`SampleLogBatch`): the same reports
    /// as the clean logs give; printed back without symbols byte for byte; printed back symbolicated as one object a
    /// line whose message is the clean output's line.
    @Test(arguments: loggers)
    func everySampleReadsAsItself(_ logger: Logger) throws {
        #expect(SampleLogBatch.logs.count >= 17, "the sample logs were not all found")
        let clean = try SampleLogBatch.clean.get()
        let batch = try SampleLogBatch("wrapped") { Self.applying(logger, to: $0.text) }
        let inputs = SampleLogBatch.logs.map { Self.applying(logger, to: $0.text) }

        let json = try batch.run(SampleLogBatch.symbolicate + ["--json"])
        #expect(json.status == 0, "\(logger.name): \(json.standardError)")
        #expect(
            json.standardOutput == clean.json,
            "\(logger.name): the reports differ at \(SampleLogBatch.firstDifference(json.standardOutput, clean.json))")
        let (resolved, total) = try LogPrefixTests.resolvedFrames(json.standardOutput)

        // Read and printed back without symbols: byte for byte, escapes as the logger wrote them.
        let unchanged = try batch.parts(of: batch.run(["symbolicate", "--parse-only"]))
        for (log, (lines, input)) in zip(SampleLogBatch.logs, zip(unchanged, inputs)) {
            #expect(lines.map { $0 + "\n" }.joined() == input, "\(logger.name), \(log.folder)/\(log.name)")
        }

        // Printed back: each line one object, its message the clean output's line, its other members those of the
        // line it stands for (a frame's added lines copy its line's).
        let printed = try batch.parts(of: batch.run(SampleLogBatch.symbolicate))
        for (index, log) in SampleLogBatch.logs.enumerated() {
            let (wrappedText, cleanText) = (printed[index], clean.text[index])
            #expect(wrappedText.count == cleanText.count, "\(logger.name), \(log.folder)/\(log.name)")
            var printedOthers: [String] = []
            for (line, expected) in zip(wrappedText, cleanText) {
                let (message, others) = try Self.opened(line, logger: logger)
                #expect(message == expected, "\(logger.name), \(log.folder)/\(log.name)")
                if printedOthers.last != others { printedOthers.append(others) }
            }
            let inputOthers = try inputs[index].split(separator: "\n").map {
                try Self.opened(String($0), logger: logger).others
            }
            #expect(
                printedOthers == inputOthers,
                "\(logger.name), \(log.folder)/\(log.name): other members changed or out of order")
        }
        print("\(logger.name): \(resolved) of \(total) frames of the samples resolve")
        #expect(resolved > total / 2)
    }

    /// A shipper that joins a whole report into one record (a multiline rule): every sample log as one object reads as the
    /// log itself, and prints back as one object whose message is the clean log's output, added lines and all.
    @Test func aWholeLogInOneRecord() throws {
        let clean = try SampleLogBatch.clean.get()
        func record(_ log: SampleLogBatch.Log) -> String {
            let message = log.text.hasSuffix("\n") ? String(log.text.dropLast()) : log.text
            return #"{"@timestamp":"2026-11-25T10:00:00Z","message":\#(Self.goQuoted(message)),"host":{"name":"ci-7"}}"#
                + "\n"
        }
        let batch = try SampleLogBatch("record", record)
        let json = try batch.run(SampleLogBatch.symbolicate + ["--json"])
        #expect(
            json.standardOutput == clean.json,
            "the reports differ at \(SampleLogBatch.firstDifference(json.standardOutput, clean.json))")
        let unchanged = try batch.parts(of: batch.run(["symbolicate", "--parse-only"]))
        let printed = try batch.parts(of: batch.run(SampleLogBatch.symbolicate))
        for (index, log) in SampleLogBatch.logs.enumerated() {
            #expect(unchanged[index].map { $0 + "\n" }.joined() == record(log), "\(log.folder)/\(log.name)")
            #expect(printed[index].count == 1, "\(log.name): \(printed[index].count) lines")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data((printed[index].first ?? "").utf8)) as? [String: Any],
                "\(log.name)")
            #expect(
                object["message"] as? String == clean.text[index].joined(separator: "\n"), "\(log.folder)/\(log.name)")
            #expect((object["host"] as? [String: Any])?["name"] as? String == "ci-7")
        }
    }

    /// Every log of the test corpus (real logs of every format, from many sources) as docker stores it reads as the log
    /// itself and prints back byte for byte. (A tombstone's frames were also found in the objects' text, with the rest of
    /// each object glued to them, and the log was first left unopened.)
    @Test func everyCorpusLogReadsAsItself() throws {
        let corpus = Paths.packageRoot.appendingPathComponent("Tests/CrashLogsTests/Corpus")
        let files = try #require(FileManager.default.subpaths(atPath: corpus.path)).filter { !$0.hasSuffix(".md") }
            .sorted()
            .filter {
                var isDirectory: ObjCBool = false;
                return FileManager.default.fileExists(
                    atPath: corpus.appendingPathComponent($0).path, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
        #expect(files.count >= 40, "the corpus was not all found")
        let logs = files.compactMap { file in
            (try? String(contentsOfFile: corpus.appendingPathComponent(file).path, encoding: .utf8)).map { (file, $0) }
        }
        let folder = Fixtures.scratchDirectory("wrapped-corpus")
        var originals: [String] = [], wrapped: [String] = [], inputs: [String] = []
        for (index, (file, text)) in logs.enumerated() {
            let path = folder + "/\(index)-" + (file as NSString).lastPathComponent
            inputs.append(Self.applying(Self.loggers[0], to: text))
            try inputs[index].write(toFile: path, atomically: true, encoding: .utf8)
            originals.append(corpus.appendingPathComponent(file).path)
            wrapped.append(path)
        }
        // One run over every log, and one over every wrapped copy: the same reports, the same lines on stderr (each
        // naming its file), the same status.
        let clean = try Command.postmortem(["symbolicate", "--parse-only", "--json"] + originals)
        let read = try Command.postmortem(["symbolicate", "--parse-only", "--json"] + wrapped)
        #expect(read.status == clean.status)
        #expect(
            read.standardOutput == clean.standardOutput,
            "the reports differ at \(SampleLogBatch.firstDifference(read.standardOutput, clean.standardOutput))")
        var errors = read.standardError
        for (copy, original) in zip(wrapped, originals) {
            errors = errors.replacingOccurrences(of: copy, with: original)
        }
        #expect(errors == clean.standardError)
        // Printed back byte for byte, file by file.
        let printed = try Command.postmortem(["symbolicate", "--parse-only"] + wrapped)
        var expected = ""
        for (path, input) in zip(wrapped, inputs) { expected += "==> \(path) <==\n" + input }
        #expect(printed.standardOutput == expected)
    }

    /// A logger's prefix inside the message (an app that stamps its own lines) is found there too.
    @Test func aPrefixInsideTheMessage() throws {
        let scratch = try BadInputTests.Scratch()
        let folder = "SampleCrashes/linux-c-signal"
        let original = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(folder)/segv-lib.txt").path, encoding: .utf8)
        let stamped = LogPrefixTests.applying(LogPrefixTests.loggers[6], to: original)
        try Self.applying(Self.loggers[0], to: stamped).write(
            toFile: scratch.path("both.txt"), atomically: true, encoding: .utf8)
        try original.write(toFile: scratch.path("clean.txt"), atomically: true, encoding: .utf8)
        let clean = try Command.postmortem([
            "symbolicate", "--no-cache", "--json", "-d", folder, scratch.path("clean.txt")
        ])
        let both = try Command.postmortem([
            "symbolicate", "--no-cache", "--json", "-d", folder, scratch.path("both.txt")
        ])
        #expect(both.standardOutput == clean.standardOutput)
        let text = try Command.postmortem(["symbolicate", "--no-cache", "-d", folder, scratch.path("both.txt")])
            .outputLines
        let cleanText = try Command.postmortem(["symbolicate", "--no-cache", "-d", folder, scratch.path("clean.txt")])
            .outputLines
        let messages = try text.map { try Self.opened($0, logger: Self.loggers[0]).message }
        #expect(messages.count == cleanText.count)
        for (message, expected) in zip(messages, cleanText) {
            #expect(message.hasPrefix("2026-11-25 10:00:") && message.hasSuffix(expected), "\(message)")
        }
    }
}
