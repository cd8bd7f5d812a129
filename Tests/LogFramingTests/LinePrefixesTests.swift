import CrashLogs
import Foundation
import TestSupport
import Testing

@testable import LogFraming

/// Which logs are tried for a logger's prefix: the shapes common to a log's lines that also start its first lines.
@Suite("Line prefixes")
struct LinePrefixesTests {
    /// A committed Swift `fatalError` trace: a message and a heading, then numbered frames on most lines.
    private static func fatalTrace() throws -> [String] {
        let path = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-groups/negative-fatal-aslr-on.txt")
        return try String(contentsOf: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    private static func lines(_ texts: [String]) -> [LogLine] {
        texts.map { LogLine(bytes: Array(($0 + "\n").utf8)) }
    }

    private static func journald(_ number: Int) -> String {
        "Nov 25 10:00:\(number % 50 + 10) build-host app[4242]: "
    }

    @Test func framesNumberedAfterAHeadingAreTheLogsOwnNotTried() throws {
        let trace = try Self.fatalTrace()
        #expect(trace.count > 8 && trace[1] == "Current stack trace:")
        // The frame numbers are common to the log's lines, and would be a candidate without the two heading lines.
        #expect(!LinePrefixes.candidates(in: Self.lines(Array(trace.dropFirst(2)))[...]).isEmpty)
        #expect(LinePrefixes.candidates(in: Self.lines(trace)[...]).isEmpty)
        var readings = 0
        let framing = LogFraming.of(Self.lines(trace)) { _ in
            readings += 1
            return 1
        }
        #expect(framing.isNone && readings == 0)
    }

    @Test func aLoggersPrefixIsTriedBelowAHeaderLine() throws {
        let trace = try Self.fatalTrace()
        let prefixed = trace.enumerated().map { Self.journald($0.offset) + $0.element }
        let journal =
            ["-- Logs begin at Wed 2026-11-25 09:00:00 UTC, end at Wed 2026-11-25 10:01:00 UTC. --"] + prefixed
        let shapes = LinePrefixes.candidates(in: Self.lines(journal)[...])
        let whole = try #require(
            shapes.first {
                LinePrefixes.prefix(of: prefixed[0].utf8.span, shape: $0)?.length == Self.journald(0).utf8.count
            })
        // The reader reads more frames without the prefix than with it or with any other shape: the framing takes it
        // off.
        let framing = LogFraming.of(Self.lines(journal)) { lines in
            lines.count { line in
                let words = line.text.split(separator: " ")
                return words.count > 3 && Int(words[0]) != nil && words[2].hasPrefix("0x")
            }
        }
        #expect(framing.linePrefix == whole)
    }

    /// gdb says `(no debugging symbols found)` for every library it loads: a line said again and again is one line, its
    /// start not a prefix to try (each shape tried is a reading of the sample); a logger's prefix on lines that repeat
    /// is still found, the lines it starts being more than one.
    @Test func aLineSaidAgainAndAgainIsNoPrefix() throws {
        let trace = try Self.fatalTrace()
        let noise = Array(repeating: "(no debugging symbols found)", count: 3 * trace.count)
        let gdb = noise + trace
        var readings = 0
        let framing = LogFraming.of(Self.lines(gdb)) { _ in
            readings += 1
            return 1
        }
        #expect(LinePrefixes.candidates(in: Self.lines(gdb)[...]).isEmpty)
        #expect(framing.isNone && readings == 0)

        let prefixed = gdb.map { "app: " + $0 }
        let shapes = LinePrefixes.candidates(in: Self.lines(prefixed)[...])
        #expect(
            shapes.contains { LinePrefixes.prefix(of: prefixed[0].utf8.span, shape: $0)?.length == "app: ".utf8.count })
    }

    @Test func mostOfTheFirstLinesMustStartWithTheShape() {
        let kinds = [LinePrefixes.firstTwoKinds(of: "12 frame".utf8.span)!]
        func starts(_ texts: [String]) -> Bool {
            LinePrefixes.startsFirstLines(of: Self.lines(texts)[...], withOneOf: kinds)
        }
        #expect(starts(["1 a", "", "2 b", "heading", "3 c", "4 d", "no", "no", "no"]))
        #expect(!starts(["heading", "more", "1 a", "2 b", "3 c", "4 d", "5 e"]))
        #expect(starts(["1 a", "2 b"]) && !starts(["1 a", "b"]) && starts(["a", "1 a", "2 b"]))
        #expect(!starts([]))
    }
}
