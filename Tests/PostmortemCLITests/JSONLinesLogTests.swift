import Foundation
import Testing
import TestSupport

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
        },
    ]

    static func applying(_ logger: Logger, to text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines.enumerated().map { logger.object($0.offset, $0.element) }.joined(separator: "\n") + "\n"
    }

    /// A printed line's object: its message (less the line ending the logger keeps) and its other members as JSON.
    static func opened(_ line: String, logger: Logger) throws -> (message: String, others: String) {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        var message = try #require(object.removeValue(forKey: logger.field) as? String, "no \(logger.field): \(line)")
        if logger.keepsLineEnding {
            #expect(message.hasSuffix("\n"), "\(line)")
            message.removeLast()
        }
        let others = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return (message, String(decoding: others, as: UTF8.self))
    }

    @Test(arguments: loggers)
    func everySampleReadsAsItself(_ logger: Logger) throws {
        #expect(LogPrefixTests.logs.count >= 17, "the sample logs were not all found")
        let scratch = try BadInputTests.Scratch()
        var resolved = 0, total = 0
        for (folder, name) in LogPrefixTests.logs {
            let original = try String(contentsOfFile: Paths.packageRoot.appendingPathComponent("\(folder)/\(name)").path, encoding: .utf8)
            let clean = scratch.path("clean-" + name), wrapped = scratch.path("wrapped-" + name)
            let input = Self.applying(logger, to: original)
            try original.write(toFile: clean, atomically: true, encoding: .utf8)
            try input.write(toFile: wrapped, atomically: true, encoding: .utf8)
            let arguments = ["symbolicate", "--no-cache", "-d", folder]

            let cleanJSON = try Command.postmortem(arguments + ["--json", clean])
            let wrappedJSON = try Command.postmortem(arguments + ["--json", wrapped])
            #expect(wrappedJSON.status == 0, "\(logger.name), \(name): \(wrappedJSON.standardError)")
            #expect(wrappedJSON.standardOutput == cleanJSON.standardOutput, "\(logger.name), \(name): the reports differ")
            let counts = try LogPrefixTests.resolvedFrames(wrappedJSON.standardOutput)
            resolved += counts.resolved
            total += counts.total

            // Read and printed back without symbols: byte for byte, escapes as the logger wrote them.
            #expect(try Command.postmortem(["symbolicate", "--parse-only", wrapped]).standardOutput == input, "\(logger.name), \(name)")

            // Printed back: each line one object, its message the clean output's line, its other members those of the
            // line it stands for (a frame's added lines copy its line's).
            let cleanText = try Command.postmortem(arguments + [clean]).outputLines
            let wrappedText = try Command.postmortem(arguments + [wrapped]).outputLines
            #expect(wrappedText.count == cleanText.count, "\(logger.name), \(name)")
            var printedOthers: [String] = []
            for (line, expected) in zip(wrappedText, cleanText) {
                let (message, others) = try Self.opened(line, logger: logger)
                #expect(message == expected, "\(logger.name), \(name)")
                if printedOthers.last != others { printedOthers.append(others) }
            }
            let inputOthers = try input.split(separator: "\n").map { try Self.opened(String($0), logger: logger).others }
            #expect(printedOthers == inputOthers, "\(logger.name), \(name): other members changed or out of order")
        }
        print("\(logger.name): \(resolved) of \(total) frames of the samples resolve")
        #expect(resolved > total / 2)
    }

    /// A shipper that joins a whole report into one record (a multiline rule): every sample log as one object reads as the
    /// log itself, and prints back as one object whose message is the clean log's output, added lines and all.
    @Test func aWholeLogInOneRecord() throws {
        let scratch = try BadInputTests.Scratch()
        for (folder, name) in LogPrefixTests.logs {
            let original = try String(contentsOfFile: Paths.packageRoot.appendingPathComponent("\(folder)/\(name)").path, encoding: .utf8)
            let message = original.hasSuffix("\n") ? String(original.dropLast()) : original
            let input = #"{"@timestamp":"2026-11-25T10:00:00Z","message":\#(Self.goQuoted(message)),"host":{"name":"ci-7"}}"# + "\n"
            let clean = scratch.path("clean-" + name), wrapped = scratch.path("record-" + name)
            try original.write(toFile: clean, atomically: true, encoding: .utf8)
            try input.write(toFile: wrapped, atomically: true, encoding: .utf8)
            let arguments = ["symbolicate", "--no-cache", "-d", folder]
            let cleanJSON = try Command.postmortem(arguments + ["--json", clean])
            let wrappedJSON = try Command.postmortem(arguments + ["--json", wrapped])
            #expect(wrappedJSON.standardOutput == cleanJSON.standardOutput, "\(name): the reports differ")
            #expect(try Command.postmortem(["symbolicate", "--parse-only", wrapped]).standardOutput == input, "\(name)")
            let cleanText = try Command.postmortem(arguments + [clean]).standardOutput
            let printed = try Command.postmortem(arguments + [wrapped]).outputLines
            #expect(printed.count == 1, "\(name): \(printed.count) lines")
            let object = try #require(try JSONSerialization.jsonObject(with: Data((printed.first ?? "").utf8)) as? [String: Any], "\(name)")
            #expect(object["message"] as? String == (cleanText.hasSuffix("\n") ? String(cleanText.dropLast()) : cleanText), "\(name)")
            #expect((object["host"] as? [String: Any])?["name"] as? String == "ci-7")
        }
    }

    /// Every log of the test corpus (real logs of every format, from many sources) as docker stores it reads as the log
    /// itself and prints back byte for byte. (A tombstone's frames were also found in the objects' text, with the rest of
    /// each object glued to them, and the log was first left unopened.)
    @Test func everyCorpusLogReadsAsItself() throws {
        let scratch = try BadInputTests.Scratch()
        let corpus = Paths.packageRoot.appendingPathComponent("Tests/CrashLogsTests/Corpus")
        let files = try #require(FileManager.default.subpaths(atPath: corpus.path)).filter { !$0.hasSuffix(".md") }.sorted()
            .filter { var isDirectory: ObjCBool = false; return FileManager.default.fileExists(atPath: corpus.appendingPathComponent($0).path, isDirectory: &isDirectory) && !isDirectory.boolValue }
        #expect(files.count >= 40, "the corpus was not all found")
        for file in files {
            let path = corpus.appendingPathComponent(file).path
            guard let original = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let input = Self.applying(Self.loggers[0], to: original)
            try input.write(toFile: scratch.path("wrapped.txt"), atomically: true, encoding: .utf8)
            let clean = try Command.postmortem(["symbolicate", "--parse-only", "--json", path])
            let wrapped = try Command.postmortem(["symbolicate", "--parse-only", "--json", scratch.path("wrapped.txt")])
            #expect(wrapped.standardOutput == clean.standardOutput && wrapped.status == clean.status, "\(file)")
            #expect(try Command.postmortem(["symbolicate", "--parse-only", scratch.path("wrapped.txt")]).standardOutput == input, "\(file)")
        }
    }

    /// A logger's prefix inside the message (an app that stamps its own lines) is found there too.
    @Test func aPrefixInsideTheMessage() throws {
        let scratch = try BadInputTests.Scratch()
        let folder = "SampleCrashes/linux-c-signal"
        let original = try String(contentsOfFile: Paths.packageRoot.appendingPathComponent("\(folder)/segv-lib.txt").path, encoding: .utf8)
        let stamped = LogPrefixTests.applying(LogPrefixTests.loggers[6], to: original)
        try Self.applying(Self.loggers[0], to: stamped).write(toFile: scratch.path("both.txt"), atomically: true, encoding: .utf8)
        try original.write(toFile: scratch.path("clean.txt"), atomically: true, encoding: .utf8)
        let clean = try Command.postmortem(["symbolicate", "--no-cache", "--json", "-d", folder, scratch.path("clean.txt")])
        let both = try Command.postmortem(["symbolicate", "--no-cache", "--json", "-d", folder, scratch.path("both.txt")])
        #expect(both.standardOutput == clean.standardOutput)
        let text = try Command.postmortem(["symbolicate", "--no-cache", "-d", folder, scratch.path("both.txt")]).outputLines
        let cleanText = try Command.postmortem(["symbolicate", "--no-cache", "-d", folder, scratch.path("clean.txt")]).outputLines
        let messages = try text.map { try Self.opened($0, logger: Self.loggers[0]).message }
        #expect(messages.count == cleanText.count)
        for (message, expected) in zip(messages, cleanText) {
            #expect(message.hasPrefix("2026-11-25 10:00:") && message.hasSuffix(expected), "\(message)")
        }
    }
}
