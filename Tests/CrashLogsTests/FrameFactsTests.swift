import CrashLogs
import Foundation
import TestSupport
import Testing

/// Per-frame facts for the formats whose readers were held to a count of frames only: every frame line of every
/// committed log of the format, read by a pattern of the test's own, is a frame on that line with that line's address
/// (or module offset), image, and symbol and offset where the line names them; and the exception the log states.
@Suite("Crash-log corpus: each frame's facts")
struct FrameFactsTests {
    /// What a frame line says: its line number (from 0), and the facts it states (nil: the line does not say).
    struct Fact {
        var line: Int
        var address: UInt64?
        var imageOffset: UInt64?
        var image: String?
        var symbol: String?
        var symbolOffset: UInt64?
    }

    /// The facts of every line `regex` matches; `read` turns a match's groups (by number, nil when a group did not
    /// take part) into a fact.
    static func facts(_ text: String, _ pattern: String, _ read: (Int, (Int) -> String?) -> Fact?) throws -> [Fact] {
        let regex = try NSRegularExpression(pattern: pattern)
        var facts: [Fact] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            guard let match = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
            let group = { (index: Int) in Range(match.range(at: index), in: line).map { String(line[$0]) } }
            if let fact = read(number, group) { facts.append(fact) }
        }
        return facts
    }

    /// Every fact holds of the frame parsed on its line; with `everyFrame`, there are facts and every frame is on a
    /// line with facts too (without it, frames of lines the pattern does not read, such as another kind of stack in the
    /// same log, are left, and a log of no frames passes).
    static func check(_ report: CrashReport, _ facts: [Fact], _ path: String, everyFrame: Bool = true) {
        let name = (path as NSString).lastPathComponent
        let frames = Dictionary(
            report.threads.flatMap(\.frames).map { ($0.lineNumber, $0) }, uniquingKeysWith: { first, _ in first })
        if everyFrame {
            #expect(!facts.isEmpty, "\(name): no frame line found by the test's pattern")
            #expect(Set(frames.keys) == Set(facts.map(\.line)), "\(name): frames on other lines than the frame lines")
        }
        for fact in facts {
            guard let frame = frames[fact.line] else {
                Issue.record("\(name):\(fact.line + 1): no frame parsed")
                continue
            }
            let place = "\(name):\(fact.line + 1)"
            if let address = fact.address { #expect(frame.address == address, "\(place): address") }
            if let offset = fact.imageOffset { #expect(frame.imageOffset == offset, "\(place): image offset") }
            if let image = fact.image {
                #expect(frame.image.map { report.images[$0].name } == image, "\(place): image")
            }
            if let symbol = fact.symbol { #expect(frame.symbolInLog == symbol, "\(place): symbol") }
            if let offset = fact.symbolOffset { #expect(frame.symbolOffsetInLog == offset, "\(place): symbol offset") }
        }
    }

    static func hex(_ text: String?) -> UInt64? {
        text.flatMap { UInt64($0.hasPrefix("0x") ? String($0.dropFirst(2)) : $0, radix: 16) }
    }

    /// NSException's `N  Image  0xADDRESS symbol + offset` lines (a crash reporter's `callStackSymbols`), and Apple's
    /// legacy `.ips` (bug type 109: a JSON header, then the report as text), whose thread lines read alike.
    @Test(
        arguments: CorpusParsingTests.files("nsexception")
            + CorpusParsingTests.files("apple-ips").filter { $0.contains("bug-type-109") })
    func appleFrameLines(_ path: String) throws {
        let (_, text, report) = try CorpusFile.load(path)
        // `N  Image  0xADDRESS symbol + offset`, or a symbolicated line's `symbol (file:line)` with no offset.
        let facts = try Self.facts(text, #"^\s*\d+\s+(\S+)\s+0x([0-9a-fA-F]+)(?:\s+(.+?) \+ (\d+))?(?:\s.*)?$"#) {
            line, group in
            // A symbol and offset are facts when the line gives both; `<redacted>` or an address names nothing.
            let symbol = group(3)?.trimmingCharacters(in: .whitespaces)
            let named = symbol.map { !$0.hasPrefix("0x") && $0 != "<redacted>" } ?? false
            return Fact(
                line: line, address: Self.hex(group(2)), image: group(1), symbol: named ? symbol : nil,
                symbolOffset: named ? group(4).flatMap { UInt64($0) } : nil)
        }
        Self.check(report, facts, path)
        #expect(report.exception != nil, "\(path): the exception the log states")
    }

    /// minidump-stackwalk's `-m` rows, `thread|frame|module|function|file|line|offset`: the offset is from the
    /// source line's start when a file is named, else from the function when one is named, else from the module,
    /// else the address itself (Breakpad's `PrintStackMachineReadable` writes them so).
    @Test(arguments: CorpusParsingTests.files("breakpad-stackwalk").filter { $0.contains("machine-readable") })
    func breakpadMachineRows(_ path: String) throws {
        let (_, text, report) = try CorpusFile.load(path)
        let facts = try Self.facts(text, #"^\d+\|\d+\|([^|]*)\|([^|]*)\|([^|]*)\|[^|]*\|(0x[0-9a-fA-F]+)$"#) {
            line, group in
            let module = group(1) ?? "", function = group(2) ?? "", file = group(3) ?? "", offset = Self.hex(group(4))
            let image = module.isEmpty ? nil : module
            switch (function.isEmpty, file.isEmpty) {
            case (false, false): return Fact(line: line, image: image, symbol: function)
            case (false, true): return Fact(line: line, image: image, symbol: function, symbolOffset: offset)
            case (true, _):
                return module.isEmpty
                    ? Fact(line: line, address: offset) : Fact(line: line, imageOffset: offset, image: module)
            }
        }
        Self.check(report, facts, path)
        let crash = try #require(text.split(separator: "\n").first { $0.hasPrefix("Crash|") }).split(
            separator: "|", omittingEmptySubsequences: false)
        if !crash[1].isEmpty { #expect(report.exception?.type == String(crash[1]), "\(path)") }
    }

    /// minidump-stackwalk's human-readable frames, ` N  module!function …` or ` N  0xADDRESS`: each frame has the number
    /// its line starts with (frame 0's address is the program counter, every other a return address).
    @Test(arguments: CorpusParsingTests.files("breakpad-stackwalk").filter { !$0.contains("machine-readable") })
    func breakpadHumanFrameNumbers(_ path: String) throws {
        let (_, text, report) = try CorpusFile.load(path)
        let regex = try NSRegularExpression(pattern: #"^ ?(\d+)  \S"#)
        var numbers: [Int: Int] = [:]
        for (line, content) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = String(content)
            guard let match = regex.firstMatch(in: content, range: NSRange(content.startIndex..., in: content)),
                let digits = Range(match.range(at: 1), in: content)
            else { continue }
            numbers[line] = Int(content[digits])
        }
        let frames = report.threads.flatMap(\.frames)
        #expect(!frames.isEmpty && frames.contains { $0.index >= 10 } == numbers.values.contains { $0 >= 10 })
        for frame in frames {
            #expect(frame.index == numbers[frame.lineNumber], "\(path): line \(frame.lineNumber)")
            #expect((frame.addressKind == .programCounter) == (frame.index == 0), "\(path): line \(frame.lineNumber)")
        }
    }

    /// A tombstone a symbolizer went through, inside logcat: `#N 0xADDRESS in function file:line` lines after its
    /// banner, each a frame at that address.
    @Test(arguments: CorpusParsingTests.files("android-tombstone").filter { $0.contains("symbolized") })
    func symbolizedTombstoneLines(_ path: String) throws {
        let (_, text, report) = try CorpusFile.load(path)
        let banner = try #require(text.range(of: "*** *** ***"), "\(path) has no tombstone banner")
        let firstLine = text[..<banner.lowerBound].filter { $0 == "\n" }.count
        let facts = try Self.facts(text, #"^\s*#\d+ 0x([0-9a-f]+) "#) { line, group in
            line >= firstLine ? Fact(line: line, address: Self.hex(group(1))) : nil
        }
        Self.check(report, facts, path)
    }

    /// systemd-coredump's `#N  0xADDRESS function (module + 0xOFFSET)` lines (the sample's report of its crash), and
    /// the signal its first line names.
    @Test func systemdCoredumpLines() throws {
        let path = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-c-signal/coredump.txt").path
        let (_, text, report) = try CorpusFile.load(path)
        #expect(report.format == .systemdCoredump)
        let facts = try Self.facts(text, #"^\s*#\d+\s+0x([0-9a-f]+) (\S+) \((\S+) \+ 0x([0-9a-f]+)\)$"#) {
            line, group in
            Fact(
                line: line, address: Self.hex(group(1)), imageOffset: Self.hex(group(4)), image: group(3),
                symbol: group(2) == "n/a" ? nil : group(2))
        }
        #expect(facts.count == 5)
        Self.check(report, facts, path)
        #expect(report.threads.flatMap(\.frames).filter { $0.symbolInLog == nil }.count == 1, "`n/a` names no function")
    }

    /// The Swift backtracer's JSON: each frame object's address, in order, thread by thread, and each image
    /// object's name, path and build-id.
    @Test(arguments: ["crash.json", "negative-backtrace-aslr-on.json", "range-backtrace-aslr-off.json"])
    func swiftBacktracerJSONFrames(_ name: String) throws {
        let folder = name == "crash.json" ? "linux-swift-backtrace" : "linux-groups"
        let path = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/\(folder)/\(name)").path
        let (_, text, report) = try CorpusFile.load(path)
        // The report is the line holding one JSON object, after the runtime's own lines.
        let object = try #require(text.split(separator: "\n").first { $0.hasPrefix("{") })
        let document = try #require(try JSONSerialization.jsonObject(with: Data(object.utf8)) as? [String: Any])
        let threads = try #require(document["threads"] as? [[String: Any]])
        let expected = threads.map { thread in
            ((thread["frames"] as? [[String: Any]]) ?? []).compactMap { Self.hex($0["address"] as? String) }
        }.filter { !$0.isEmpty }
        #expect(report.threads.map { $0.frames.compactMap(\.address) } == expected, "\(name)")
        let images = try #require(document["images"] as? [[String: Any]])
        #expect(report.images.map(\.name) == images.compactMap { $0["name"] as? String })
        #expect(report.images.map(\.path) == images.compactMap { $0["path"] as? String })
        #expect(report.images.map(\.identifier) == images.map { $0["buildId"] as? String })
    }

    /// The swift-backtrace package's `Received signal 4. Backtrace:` (SampleCrashes/swift-backtrace-package): every
    /// `0x…` line a frame at that address, its function where the line names one; each caller's address is libbacktrace's
    /// return address less one, so it is marked as adjusted already.
    @Test(arguments: ["crash.txt", "crash-stripped.txt"])
    func swiftBacktracePackageLines(_ log: String) throws {
        let path = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/swift-backtrace-package/\(log)").path
        let (bytes, text, report) = try CorpusFile.load(path)
        let start = try #require(
            text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                $0.hasPrefix("Received signal 4")
            })
        let facts = try Self.facts(text, #"^0x([0-9a-f]+)(?:, (.+?)(?: at \S+:\d+)?)?(?: at \S+:\d+)?$"#) {
            line, group in
            line > start ? Fact(line: line, address: Self.hex(group(1)), symbol: group(2)) : nil
        }
        #expect(facts.count == 14)
        let thread = try #require(report.threads.first { $0.name?.hasPrefix("Received signal 4") == true })
        let pastFatalError = CrashReport(
            format: report.format, exception: nil, threads: [thread], images: report.images, lines: report.lines)
        Self.check(pastFatalError, facts, path)
        #expect(thread.frames.dropFirst().allSatisfy { $0.addressKind == .adjustedReturnAddress })
        #expect(report.exception?.type == "Fatal error")
        #expect(ReportTextRenderer().render(report) == bytes, "printed back unchanged")
    }
}
