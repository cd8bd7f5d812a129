import CrashLogs
import Foundation
import LogFraming
import TestSupport
import Testing

/// Real logs from the corpus (see Corpus/NOTICE.md) and the samples: each parses in its format, every
/// frame line becomes a frame, and printing the parsed log back without symbols gives the input unchanged.
@Suite("Crash-log corpus")
struct CorpusParsingTests {
    static let corpus = Fixtures.packageRoot.appendingPathComponent("Tests/CrashLogsTests/Corpus")

    static func files(_ format: String) -> [String] {
        let directory = corpus.appendingPathComponent(format)
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
            .map { directory.appendingPathComponent($0).path }
    }

    /// The corpus as committed: each format's folder and at least its logs (fewer found is a folder gone, not a pass).
    @Test func theCorpusIsWhole() {
        let known = [
            "android-tombstone": 10, "apple-crash": 13, "apple-ips": 5, "breakpad-stackwalk": 8, "gdb-bt": 6,
            "glibc-backtrace": 5, "nsexception": 1, "sanitizer": 13, "swift-fatal": 1
        ]
        for (format, count) in known { #expect(Self.files(format).count >= count, "\(format)") }
    }

    static let sanitizerFramePattern = #"^\s*#\d+(\.\d+)?\s+0x[0-9a-fA-F]+"#
    static let glibcFramePattern =
        #"^\s*[^\s\[#][^\[]*(\([^\n]*\))?\s?\[0x[0-9a-fA-F]+\]\s*$|^\s*\[0x[0-9a-fA-F]+\]\s*$"#

    static let sanitizerFiles =
        files("sanitizer") + [Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-c-asan/asan.txt").path]
    static let glibcFiles =
        files("glibc-backtrace") + [
            Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-c-sensors/crash.txt").path
        ]

    private func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Lines an independent pattern calls frames.
    private func count(_ pattern: String, in path: String) throws -> Int {
        let text = String(decoding: try bytes(path), as: UTF8.self)
        let regex = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        return regex.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
    }

    /// What an independent pattern reads off each frame line: the line's number, its address, and the module the
    /// line names (its file name), if any.
    static func frameFacts(_ path: String, pattern: String, address: Int, module: Int) throws -> [(
        line: Int, address: UInt64, module: String?
    )] {
        let text = String(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: path))), as: UTF8.self)
        let regex = try NSRegularExpression(pattern: pattern)
        var facts: [(line: Int, address: UInt64, module: String?)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            guard let match = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                let addressRange = Range(match.range(at: address), in: line),
                let value = UInt64(line[addressRange], radix: 16)
            else { continue }
            let name = Range(match.range(at: module), in: line).map { range -> String in
                // `(/path/lib.dylib:x86_64+0x…)` on macOS: the architecture is no part of the name.
                let path = line[range].split(separator: ":").first.map(String.init) ?? String(line[range])
                return path.split(separator: "/").last.map(String.init) ?? path
            }
            facts.append((number, value, name))
        }
        return facts
    }

    /// Each frame the pattern reads is a parsed frame on that line, with that address and in an image of that name.
    static func checkFrames(
        _ report: CrashReport, against facts: [(line: Int, address: UInt64, module: String?)], _ path: String
    ) {
        FrameFactsTests.check(
            report, facts.map { FrameFactsTests.Fact(line: $0.line, address: $0.address, image: $0.module) }, path,
            everyFrame: false)
    }

    @Test(arguments: sanitizerFiles)
    func sanitizerReports(_ path: String) throws {
        let report = try CrashLogParser.parse(try bytes(path), source: path)
        #expect(report.format == .sanitizer)
        let frames = report.threads.reduce(0) { $0 + $1.frames.count }
        // A sanitizer report may follow the program's own glibc backtrace: both kinds of line are frames.
        #expect(
            frames == (try count(Self.sanitizerFramePattern, in: path)) + (try count(Self.glibcFramePattern, in: path)),
            "every `#N 0x…` line and every `module(…) [0x…]` line is a frame")
        #expect(frames > 0)
        #expect(report.exception != nil, "the ERROR/WARNING/runtime error line names the problem")
        let facts = try Self.frameFacts(
            path, pattern: #"^\s*#\d+(?:\.\d+)?\s+0x([0-9a-fA-F]+)(?:.*\(([^()\s]+?)\+0x[0-9a-fA-F]+\))?"#,
            address: 1, module: 2)
        Self.checkFrames(report, against: facts, path)
        #expect(ReportTextRenderer().render(report) == (try bytes(path)), "printed back unchanged")
    }

    @Test(arguments: glibcFiles)
    func glibcBacktraces(_ path: String) throws {
        let report = try CrashLogParser.parse(try bytes(path), source: path)
        let frames = report.threads.reduce(0) { $0 + $1.frames.count }
        #expect(
            frames == (try count(Self.sanitizerFramePattern, in: path)) + (try count(Self.glibcFramePattern, in: path)))
        #expect(report.threads.contains { $0.frames.contains { GlibcLine.matches(report.lines[$0.lineNumber].text) } })
        #expect(report.threads.allSatisfy { !$0.frames.isEmpty })
        let facts = try Self.frameFacts(
            path, pattern: #"^\s*([^\s(\[#][^(\[]*?)?\s?(?:\([^)]*\))?\s?\[0x([0-9a-fA-F]+)\]\s*$"#,
            address: 2, module: 1)
        #expect(!facts.isEmpty)
        Self.checkFrames(report, against: facts, path)
        #expect(ReportTextRenderer().render(report) == (try bytes(path)), "printed back unchanged")
    }

    @Test func swiftBacktracerReport() throws {
        let path = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-swift-backtrace/crash.txt").path
        let report = try CrashLogParser.parse(try bytes(path), source: path)
        #expect(report.format == .swiftBacktrace)
        #expect(report.exception == CrashReport.Exception(type: "Illegal instruction", message: "no nut in stock"))
        #expect(report.threads.map(\.name) == ["inventory"])
        #expect(report.threads.first?.crashed == true)
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.count == (try count(#"^\d+ (\[\w+\] |\s+)0x[0-9a-f]+"#, in: path)))
        #expect(
            frames.map(\.addressKind) == [.programCounter] + Array(repeating: .returnAddress, count: frames.count - 1))
        #expect(report.images.map(\.name) == ["inventory", "libswiftCore.so"])
        #expect(frames.allSatisfy { $0.image != nil }, "every address lies in a listed image")
        #expect(ReportTextRenderer().render(report) == (try bytes(path)))
    }

    /// The image list as the runtime writes it (`swift/stdlib/public/RuntimeModule`): a build ID, or `<no build ID>`
    /// (three words) before the name and path; a line cut inside those words is no image, and no crash.
    @Test func swiftBacktracerImageLines() throws {
        func images(_ lines: [String]) throws -> [CrashImage] {
            let log =
                "*** Program crashed: Bad pointer dereference at 0x0000000000000000 ***\n\nThread 0 crashed:\n\n"
                + "0 0x0000555555554100 in main at /tmp/p/main.swift:3\n\nImages (1 omitted):\n\n"
                + lines.joined(separator: "\n") + "\n"
            let report = try CrashLogParser.parse(Array(log.utf8), source: "test")
            #expect(report.format == .swiftBacktrace)
            return report.images
        }
        let base = "0x0000555555554000\u{2013}0x0000555555556000"
        #expect(
            try images([
                base + " 1f2e3d inventory /tmp/p/inventory", base + " <no build ID> inventory /tmp/my app/inventory"
            ]) == [
                CrashImage(
                    name: "inventory", path: "/tmp/p/inventory", identifier: "1f2e3d", loadAddress: 0x5555_5555_4000,
                    endAddress: 0x5555_5555_6000),
                CrashImage(
                    name: "inventory", path: "/tmp/my app/inventory", identifier: nil, loadAddress: 0x5555_5555_4000,
                    endAddress: 0x5555_5555_6000)
            ])
        #expect(
            try images(["0x1000-0x2000 <no build ID> libfoo.so /usr/lib/libfoo.so"]).map(\.name) == ["libfoo.so"],
            "the image map's hyphen")
        for cut in [base + " <no build ID>", base + " <no", base, "0x1000\u{2013}"] {
            #expect(try images([cut]).isEmpty, "\(cut)")
        }
    }

    @Test func swiftBacktracerJSONReport() throws {
        let path = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-swift-backtrace/crash.json").path
        let (bytes, text, report) = try CorpusFile.load(path)
        #expect(report.format == .swiftBacktrace)
        #expect(report.exception == CrashReport.Exception(type: "Illegal instruction", message: "no nut in stock"))
        let addresses =
            text.components(separatedBy: "\"kind\": \"returnAddress\", \"address\"").count - 1
            + text.components(separatedBy: "\"kind\": \"programCounter\", \"address\"").count - 1
        #expect(report.threads.reduce(0) { $0 + $1.frames.count } == addresses)
        #expect(report.images.map(\.name) == ["inventory", "libswiftCore.so"])
        #expect(report.threads.flatMap(\.frames).allSatisfy { $0.image != nil })
        #expect(ReportTextRenderer().render(report) == bytes)
    }

    @Test func sanitizerStacksAreTitledThreads() throws {
        let path = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-c-asan/asan.txt").path
        let report = try CrashLogParser.parse(try bytes(path), source: path)
        #expect(
            report.threads.map(\.name) == [
                "READ of size 8 at 0x603000000058 thread T0", "freed by thread T0 here:",
                "previously allocated by thread T0 here:"
            ])
        #expect(report.threads.map(\.crashed) == [true, false, false])
        #expect(report.exception?.type == "heap-use-after-free")
        #expect(report.threads[0].frames.map(\.imageOffset) == [0x1325, 0x1349, 0x27249, 0x27304, 0x1120])
        #expect(report.threads[0].frames.allSatisfy { $0.addressKind == .adjustedReturnAddress })
    }

    @Test func glibcFramesKeepModuleSymbolAndOffset() throws {
        let line = "libv8_libbase.so(V8_Fatal(char const*, int, char const*, ...)+0x200) [0xf05e2790]"
        let report = try CrashLogParser.parse(Array(line.utf8), source: "-")
        let frame = try #require(report.threads.first?.frames.first)
        #expect(frame.symbolInLog == "V8_Fatal(char const*, int, char const*, ...)")
        #expect(frame.symbolOffsetInLog == 0x200)
        #expect(frame.address == 0xF05E_2790)
        #expect(report.images.map(\.name) == ["libv8_libbase.so"])
    }

    /// A glibc frame line, by the test's own reading: it ends in `[0x…]`.
    enum GlibcLine {
        static func matches(_ text: String) -> Bool {
            text.trimmingCharacters(in: .whitespaces).hasSuffix("]") && text.contains("[0x")
        }
    }

    @Test func unknownTextIsAClearError() {
        #expect(throws: CrashLogError.self) {
            try CrashLogParser.parse(Array("hello\nworld\n".utf8), source: "notes.txt")
        }
        #expect(throws: CrashLogError.self) { try CrashLogParser.parse([0, 255, 254, 10, 0], source: "junk.bin") }
    }
}

/// Apple `.crash` reports from the corpus (see Corpus/NOTICE.md).
@Suite("Crash-log corpus: Apple")
struct AppleCorpusTests {
    static let files = CorpusParsingTests.files("apple-crash")

    @Test(arguments: files)
    func appleReports(_ path: String) throws {
        let (bytes, text, report) = try CorpusFile.load(path)
        #expect(report.format == .appleCrash)
        let expected = try CorpusFile.count(#"^\d+\s+.*?\s0x[0-9a-fA-F]+(\s|$)"#, in: text)
        #expect(report.threads.reduce(0) { $0 + $1.frames.count } == expected, "every numbered frame line is a frame")
        // `N  Module  0xADDR …`: a frame on that line with that address. (Images are not compared here: reports name a
        // frame's module by its binary, its bundle identifier or a mix of the two, in one report.)
        let facts = try CorpusParsingTests.frameFacts(
            path, pattern: #"^\d+\s+(\S+)\s+0x([0-9a-fA-F]+)(?:\s|$)"#, address: 2, module: 1
        )
        .map { (line: $0.line, address: $0.address, module: String?.none) }
        #expect(facts.count <= expected, "\(path)")
        CorpusParsingTests.checkFrames(report, against: facts, path)
        #expect(ReportTextRenderer().render(report) == bytes, "printed back unchanged")
        if text.contains("Binary Images:") {
            #expect(!report.images.isEmpty)
            #expect(report.images.allSatisfy { $0.identifier != nil && $0.loadAddress != nil })
        }
    }
}

/// Apple `.ips` reports from the corpus (see Corpus/NOTICE.md): bug type 309 (JSON) and 109 (text).
@Suite("Crash-log corpus: Apple .ips")
struct AppleIPSCorpusTests {
    static let files = CorpusParsingTests.files("apple-ips")

    @Test(arguments: files)
    func ipsReports(_ path: String) throws {
        let (bytes, text, report) = try CorpusFile.load(path)
        #expect(report.format == .appleIPS)
        let frames = report.threads.reduce(0) { $0 + $1.frames.count }
        if text.contains("\"bug_type\":\"109\"") {
            #expect(frames == (try CorpusFile.count(#"^\d+\s+.*?\s0x[0-9a-fA-F]+(\s|$)"#, in: text)))
        } else {
            // Every frame object has an imageOffset; Xcode's inline entries are not frames of their own.
            let offsets = text.components(separatedBy: "\"imageOffset\"").count - 1
            let inline = text.components(separatedBy: "\"inline\":true").count - 1
            #expect(frames == offsets - inline)
            #expect(report.threads.contains { $0.crashed })
        }
        #expect(!report.images.isEmpty)
        #expect(ReportTextRenderer().render(report) == bytes, "printed back unchanged")
        if !text.contains("\"bug_type\":\"109\"") { try Self.checkFrameObjects(report, bytes: bytes, text: text, path) }
    }

    /// Each frame read from a frame object has that object's `imageOffset`, and the image its `imageIndex` names in
    /// the report's `usedImages`, as Foundation's JSON reader reads the object and the document.
    static func checkFrameObjects(_ report: CrashReport, bytes: [UInt8], text: String, _ path: String) throws {
        // The body is the document after the first line (the header).
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
            let body = try JSONSerialization.jsonObject(with: Data(bytes[(newline + 1)...])) as? [String: Any]
        else {
            Issue.record("\((path as NSString).lastPathComponent): the body is no JSON object")
            return
        }
        let usedImages = (body["usedImages"] as? [[String: Any]]) ?? []
        var checked = 0
        for frame in report.threads.flatMap(\.frames) {
            guard let range = frame.byteRange,
                let object = try JSONSerialization.jsonObject(with: Data(bytes[range])) as? [String: Any],
                let offset = (object["imageOffset"] as? NSNumber)?.uint64Value
            else { continue }
            #expect(
                frame.imageOffset == offset,
                "\((path as NSString).lastPathComponent): frame \(frame.index): imageOffset")
            if let index = (object["imageIndex"] as? NSNumber)?.intValue, usedImages.indices.contains(index),
                let name = usedImages[index]["name"] as? String
            {
                #expect(
                    frame.image.map { report.images[$0].name } == name,
                    "\((path as NSString).lastPathComponent): frame \(frame.index): image")
            }
            checked += 1
        }
        #expect(checked > 0, "\((path as NSString).lastPathComponent): frames checked against their objects")
    }

    /// Reports with no stacks to symbolicate are a clear error; a kernel panic's is read (the shared corpus's real one,
    /// with its backtrace, is checked by SharedCorpusTests).
    @Test func otherBugTypesAreAClearError() throws {
        let jetsam = #"{"bug_type":"298","os_version":"iPhone OS 16.2"}"# + "\n{\"largestProcess\":\"x\"}\n"
        #expect(throws: CrashLogError.self) { try CrashLogParser.parse(Array(jetsam.utf8), source: "jetsam.ips") }
        let panic =
            #"{"bug_type":"151","os_version":"iPhone OS 16.2"}"# + "\n{\"string\":\"panic(cpu 0 caller 0x1): x\"}\n"
        let report = try CrashLogParser.parse(Array(panic.utf8), source: "panic.ips")
        #expect(report.exception?.message == "panic(cpu 0 caller 0x1): x")
        let broken = #"{"bug_type":"309"}"# + "\n{\"threads\": [ {\"frames\": [\n"
        #expect(throws: CrashLogError.self) { try CrashLogParser.parse(Array(broken.utf8), source: "broken.ips") }
    }
}

/// gdb backtraces from the corpus (see Corpus/NOTICE.md) and the sample.
@Suite("Crash-log corpus: gdb")
struct GDBCorpusTests {
    static let files =
        CorpusParsingTests.files("gdb-bt")
        + [Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-c-sensors/gdb-bt.txt").path]

    @Test(arguments: files)
    func gdbBacktraces(_ path: String) throws {
        let (bytes, text, report) = try CorpusFile.load(path)
        #expect(report.format == .gdbBacktrace)
        let regex = try NSRegularExpression(pattern: #"^#\d+ "#, options: [.anchorsMatchLines])
        #expect(
            report.threads.reduce(0) { $0 + $1.frames.count }
                == regex.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)))
        // `#N  0xADDR in func (…) from /lib/…`: a frame on that line with that address, in that library when named.
        let facts = try CorpusParsingTests.frameFacts(
            path, pattern: #"^#\d+\s+0x([0-9a-fA-F]+) in .*?(?: from (\S+))?\s*$"#, address: 1, module: 2)
        #expect(!facts.isEmpty)
        CorpusParsingTests.checkFrames(report, against: facts, path)
        #expect(ReportTextRenderer().render(report) == bytes, "printed back unchanged")
    }

    @Test func mappingsGiveLoadAddresses() throws {
        let path = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-c-sensors/gdb-bt.txt").path
        let report = try CrashLogParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let sensors = try #require(report.images.first { $0.name == "sensors" })
        #expect(sensors.loadAddress == 0x5555_5555_4000)
        #expect(report.exception?.type == "SIGABRT")
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.filter { $0.image.map { report.images[$0].name } == "sensors" }.count == 4)
        #expect(frames.filter(\.isSymbolicatedInLog).count == 6, "gdb named libc's frames itself")
    }
}

/// Android tombstones from the corpus (see Corpus/NOTICE.md).
@Suite("Crash-log corpus: Android tombstones")
struct TombstoneCorpusTests {
    static let files = CorpusParsingTests.files("android-tombstone")

    @Test(arguments: files)
    func tombstones(_ path: String) throws {
        let (bytes, text, report) = try CorpusFile.load(path)
        let regex = try NSRegularExpression(pattern: #"#\d{2,}\s+pc\s+[0-9a-f]{8,16}\s+\S"#)
        let expected = regex.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
        #expect(report.format == .androidTombstone)
        if expected > 0 {
            #expect(report.threads.reduce(0) { $0 + $1.frames.count } == expected)
            #expect(report.threads.flatMap(\.frames).allSatisfy { $0.imageOffset != nil && $0.image != nil })
            // Each `#NN pc OFFSET  MODULE …` line: a frame on that line at that offset, in an image the line names (the
            // parser names a library inside an APK, `base.apk!libx.so`, and a memfd mapping by their own part).
            let facts = try CorpusParsingTests.frameFacts(
                path, pattern: #"#\d{2,}\s+pc\s+([0-9a-f]{8,16})\s+(\S+)"#, address: 1, module: 2)
            #expect(facts.count == expected, "\(path)")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let frames = Dictionary(
                report.threads.flatMap(\.frames).map { ($0.lineNumber, $0) }, uniquingKeysWith: { first, _ in first })
            for fact in facts {
                let frame = try #require(frames[fact.line], "\(path):\(fact.line + 1)")
                #expect(frame.imageOffset == fact.address, "\(path):\(fact.line + 1)")
                let name = try #require(frame.image.map { report.images[$0].name })
                let afterOffset = lines[fact.line].components(separatedBy: " pc ").last ?? ""
                #expect(!name.isEmpty && afterOffset.contains(name), "\(path):\(fact.line + 1): \(name)")
            }
        } else {
            // A tombstone a symbolizer went through, inside logcat (ClusterFuzz's): its frames are the sanitizer-style
            // lines after its banner (lines before it are other processes'), each with its address.
            let banner = try #require(text.range(of: "*** *** ***"), "\(path) has a tombstone banner")
            let tail = String(text[banner.lowerBound...])
            let symbolized = try NSRegularExpression(
                pattern: #"^[ \t]*#\d+ 0x[0-9a-f]+ "#, options: [.anchorsMatchLines])
            let count = symbolized.numberOfMatches(in: tail, range: NSRange(tail.startIndex..., in: tail))
            #expect(count > 5, "\(path)")
            #expect(report.threads.reduce(0) { $0 + $1.frames.count } == count, "\(path)")
            #expect(report.threads.flatMap(\.frames).allSatisfy { $0.address != nil })
        }
        #expect(ReportTextRenderer().render(report) == bytes, "printed back unchanged")
    }
}

/// minidump-stackwalk output from the corpus (see Corpus/NOTICE.md), breakpad's and rust-minidump's.
@Suite("Crash-log corpus: minidump stackwalk")
struct StackwalkCorpusTests {
    static let files = CorpusParsingTests.files("breakpad-stackwalk")

    @Test(arguments: files)
    func stackwalks(_ path: String) throws {
        let (bytes, text, report) = try CorpusFile.load(path)
        #expect(report.format == .breakpadStackwalk)
        if text.hasPrefix("OS|") {
            // `-m`: one `thread|frame|…` row a frame, one `Module|` row an image.
            let rows = text.split(separator: "\n").filter {
                $0.split(separator: "|", omittingEmptySubsequences: false).count == 7 && $0.first?.isNumber == true
            }
            #expect(report.threads.reduce(0) { $0 + $1.frames.count } == rows.count)
            #expect(report.images.count == text.split(separator: "\n").filter { $0.hasPrefix("Module|") }.count)
            #expect(ReportTextRenderer().render(report) == bytes, "printed back unchanged")
            return
        }
        // Frame lines sit inside `Thread N` blocks, before the module list.
        let threadsPart = text.components(separatedBy: "Loaded modules:").first ?? text
        let regex = try NSRegularExpression(pattern: #"^ ?\d+  (\S+!|\S+ \+ 0x|0x)"#, options: [.anchorsMatchLines])
        #expect(
            report.threads.reduce(0) { $0 + $1.frames.count }
                == regex.numberOfMatches(in: threadsPart, range: NSRange(threadsPart.startIndex..., in: threadsPart)))
        #expect(ReportTextRenderer().render(report) == bytes, "printed back unchanged")
        // Each frame line's module and offset, as the line writes them: ` 4  crash + 0x1ebf`, ` 1  test_app.exe!main [… + 0x5]`.
        let frameLine = try Regex<(Substring, Substring, Substring?)>(
            #"^ ?\d+  ([^\s!]+)(?:!| \+ 0x([0-9a-fA-F]+)\s*$)"#)
        // Every line the pattern reads is a parsed frame on that line, of that module, at that offset.
        let framesByLine = Dictionary(
            report.threads.flatMap(\.frames).map { ($0.lineNumber, $0) }, uniquingKeysWith: { first, _ in first })
        for (number, line) in report.lines.enumerated() {
            guard let match = line.text.firstMatch(of: frameLine) else { continue }
            guard let frame = framesByLine[number] else {
                Issue.record("\((path as NSString).lastPathComponent):\(number + 1): no frame parsed")
                continue
            }
            #expect(
                frame.image.map { report.images[$0].name } == String(match.1),
                "\((path as NSString).lastPathComponent):\(number + 1)")
            if let offset = match.2 {
                #expect(
                    frame.imageOffset == UInt64(offset, radix: 16),
                    "\((path as NSString).lastPathComponent):\(number + 1): offset")
            }
        }
        // Every line of the loaded-module list (up to the blank line after it) is an image.
        let listed = text.components(separatedBy: "\nLoaded modules:\n").dropFirst().first ?? ""
        let moduleLines = listed.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.filter
        { $0.hasPrefix("0x") }.count
        #expect(report.images.count == moduleLines)
    }
}

/// A Swift runtime's `Current stack trace:`: after a sanitizer report (corpus, see Corpus/NOTICE.md), and alone, from
/// the Swift sample crashing with the backtracer off.
@Suite("Crash-log corpus: Swift runtime traces")
struct SwiftFatalCorpusTests {
    static let sample = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-swift-backtrace/fatal.txt")
        .path

    @Test(arguments: CorpusParsingTests.files("swift-fatal") + [sample])
    func swiftTraces(_ path: String) throws {
        let (bytes, text, report) = try CorpusFile.load(path)
        let sanitizer = try NSRegularExpression(
            pattern: CorpusParsingTests.sanitizerFramePattern, options: [.anchorsMatchLines])
        let swift = try NSRegularExpression(pattern: #"^\d+\s+\S+\s+0x[0-9a-f]+ "#, options: [.anchorsMatchLines])
        let range = NSRange(text.startIndex..., in: text)
        #expect(
            report.threads.reduce(0) { $0 + $1.frames.count }
                == sanitizer.numberOfMatches(in: text, range: range) + swift.numberOfMatches(in: text, range: range))
        // The runtime prints `N  module  0x… symbol + offset`: the symbol's address and the offset into it (the frame is
        // at their sum), or, with no symbol, `0x… <unavailable> + offset`: the frame's own address and its offset from
        // the image's base (the same crash's backtracer report, SampleCrashes/linux-swift-backtrace/crash.txt, has
        // the frames at those addresses).
        let traceLine = try Regex<(Substring, Substring, Substring, Substring, Substring)>(
            #"^\d+\s+(\S+)\s+0x([0-9a-f]+) (.*) \+ (\d+)$"#)
        var facts: [(line: Int, address: UInt64, module: String?)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let match = line.firstMatch(of: traceLine), let printed = UInt64(match.2, radix: 16),
                let offset = UInt64(match.4)
            else { continue }
            facts.append((number, match.3 == "<unavailable>" ? printed : printed + offset, String(match.1)))
        }
        #expect(!facts.isEmpty)
        CorpusParsingTests.checkFrames(report, against: facts, path)
        let trace = try #require(report.threads.first { $0.name == "Current stack trace" })
        #expect(
            trace.frames.filter { $0.imageOffset != nil }.count == trace.frames.filter { $0.symbolInLog == nil }.count,
            "`<unavailable> + N` frames carry the offset from the image base")
        #expect(ReportTextRenderer().render(report) == bytes, "printed back unchanged")
        if path == Self.sample {
            #expect(report.format == .swiftFatal)
            #expect(
                report.exception == CrashReport.Exception(type: "Fatal error", message: "Fatal error: no nut in stock"))
            #expect(trace.frames.filter { $0.image.map { report.images[$0].name } == "inventory" }.count == 6)
        }
    }
}

/// Exception traces pasted from crash reporters and signal handlers (corpus, see Corpus/NOTICE.md).
@Suite("Crash-log corpus: NSException traces")
struct NSExceptionCorpusTests {
    @Test(arguments: CorpusParsingTests.files("nsexception"))
    func exceptionTraces(_ path: String) throws {
        let (bytes, text, report) = try CorpusFile.load(path)
        #expect(report.format == .nsException)
        #expect(
            report.threads.reduce(0) { $0 + $1.frames.count }
                == (try CorpusFile.count(#"^\s*\d+\s+\S+\s+0x[0-9a-fA-F]+\s"#, in: text)),
            "every `N  Image  0x…` line is a frame")
        #expect(report.exception != nil)
        #expect(ReportTextRenderer().render(report) == bytes, "printed back unchanged")
    }

    /// The Umeng handler's trailer places the app: its frames get an image with a load address and UUID.
    @Test func signalHandlerTrailerPlacesTheApp() throws {
        let path = CorpusParsingTests.files("nsexception").first {
            $0.hasSuffix("umeng-sdk-signal-callstacksymbols-redacted-frames.txt")
        }!
        let report = try CorpusFile.load(path).report
        #expect(report.exception == CrashReport.Exception(type: "SIGSEGV", message: nil))
        let app = try #require(report.images.first { $0.name == "DemoApp" })
        #expect(app.loadAddress == 0x1_000e_4000)
        #expect(app.identifier == "E5B0A378-6816-3D90-86FD-2AEF15894A85")
        #expect(app.architecture == "arm64")
    }

    /// Forms whose logs may not be copied here (GitHub issue text), written in their shape: Crashlytics'
    /// `Fatal Exception:` and a bare `Application Specific Backtrace` block.
    @Test func crashReporterForms() throws {
        let crashlytics = """
            Fatal Exception: NSInternalInconsistencyException
            0  CoreFoundation                 0x1a3c39c30 __exceptionPreprocess
            1  libobjc.A.dylib                0x1a39540c8 objc_exception_throw
            2  App                            0x1031cb78c +[Helper network] + 122 (Helper.m:122)

            """
        var report = try CrashLogParser.parse(Array(crashlytics.utf8), source: "-")
        #expect(report.format == .nsException)
        #expect(report.exception?.type == "NSInternalInconsistencyException")
        #expect(report.threads.map(\.frames.count) == [3])
        let backtrace = """
            Application Specific Backtrace 1:
            0   CoreFoundation                      0x00007fff8ed3e64c __exceptionPreprocess + 172
            1   libobjc.A.dylib                     0x00007fff8d6fe6de objc_exception_throw + 43
            some other line
            """
        report = try CrashLogParser.parse(Array(backtrace.utf8), source: "-")
        #expect(report.format == .nsException)
        #expect(report.threads.map(\.name) == ["Application Specific Backtrace 1"])
        #expect(report.threads.map(\.frames.count) == [2])
        #expect(ReportTextRenderer().render(report) == Array(backtrace.utf8))
    }
}

/// Loads a corpus file and counts what an independent pattern calls frames.
enum CorpusFile {
    static func load(_ path: String) throws -> (bytes: [UInt8], text: String, report: CrashReport) {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        return (bytes, String(decoding: bytes, as: UTF8.self), try CrashLogParser.parse(bytes, source: path))
    }

    /// Matches of `pattern` (`^` and `$` at line ends) in `text`.
    static func count(_ pattern: String, in text: String) throws -> Int {
        let regex = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        return regex.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
    }

    /// Every line of every log the repository carries (the committed corpus and the samples) whose name ends in one
    /// of `extensions`, with its file: what a frame-line reader is checked against line by line.
    static func committedLines(endingIn extensions: [String]) -> [(path: String, line: String)] {
        var lines: [(path: String, line: String)] = []
        for root in ["Tests/CrashLogsTests/Corpus", "SampleCrashes"] {
            let names = ((try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []).filter { name in
                extensions.contains { name.hasSuffix($0) }
            }
            for name in names.sorted() {
                guard let text = try? String(contentsOfFile: root + "/" + name, encoding: .utf8) else { continue }
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    lines.append((root + "/" + name, String(line)))
                }
            }
        }
        return lines
    }
}
