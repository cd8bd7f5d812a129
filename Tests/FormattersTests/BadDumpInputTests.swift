import Formatters
import Foundation
import Testing

/// Hostile and broken dumps: every format, forced, on deep nesting, unclosed brackets, truncated files and more
/// values than the budget. The answer is best-effort output or an error, never a crash, a hang or a tree the
/// size of the input.
@Suite("Bad dump input")
struct BadDumpInputTests {
    static let textFormats = DumpFormat.allCases

    /// The number of values in a tree.
    static func count(_ node: ValueNode) -> Int {
        var total = 0
        var stack = [node]
        while let next = stack.popLast() {
            total += 1
            stack.append(contentsOf: next.children)
        }
        return total
    }

    /// The reason `read` gave up, or `nil` when it read a value (or failed otherwise than with the reader's error).
    static func failure(_ read: () throws -> Any) -> String? {
        do {
            _ = try read()
            return nil
        } catch let failure as DumpReader.Failure {
            return failure.description
        } catch {
            return "not the reader's error: \(error)"
        }
    }

    static func containsTruncation(_ node: ValueNode) -> Bool {
        node.kind == .truncated || node.children.contains(where: containsTruncation)
    }

    @Test(arguments: textFormats)
    func deepNestingEndsInRawTextOrAnError(_ format: DumpFormat) {
        for (open, close) in [("[", "]"), ("(", ")"), ("{", "}"), ("<dict><key>a</key>", "</dict>")] {
            let deep = String(repeating: open, count: 100_000) + String(repeating: close, count: 100_000)
            if let reading = try? DumpReader.read(deep, format: format) {
                #expect(Self.count(reading.node) < 100_000, "\(format) \(open)")
            }
        }
        // `dump()`-style indentation 3,000 levels deep (9 MB of spaces).
        let indented = (0..<3_000).map { String(repeating: "  ", count: $0) + "▿ Fixture.Level" }.joined(
            separator: "\n")
        let reading = try? DumpReader.read(indented, format: format)
        if format == .dump {
            // Every line read, none deeper than the reader goes (the deeper ones stay as siblings at its deepest level).
            let node = try? #require(reading?.node)
            #expect(node.map(Self.count) == 3_000)
            #expect(node.map(Self.depth) ?? .max <= DumpParser.maximumDepth + 1)
        } else if let reading {
            #expect(Self.count(reading.node) <= 3_000, "\(format)")
        }
    }

    /// The levels of `node`'s tree (1 for a leaf).
    static func depth(_ node: ValueNode) -> Int {
        var deepest = 0
        var pending = [(node, 1)]
        while let (next, level) = pending.popLast() {
            deepest = max(deepest, level)
            pending += next.children.map { ($0, level + 1) }
        }
        return deepest
    }

    /// A string that ends in a backslash at the end of the text (fuzz-dumps found the JSON reader looping on one,
    /// and the lldb reader had the same loop): every format returns, and those two say what they could not read.
    @Test(arguments: textFormats)
    func backslashAtTheEnd(_ format: DumpFormat) {
        if format == .json {
            let reason = Self.failure { try DumpReader.read(#"{"a": "x\"#, format: .json) }
            #expect(
                reason?.contains("JSON at byte") == true && reason?.contains("string") == true, "\(reason ?? "read")")
        }
        if format == .lldb {
            let node = try? DumpReader.read(#"(String) s = "x\"#, format: .lldb).node
            #expect(node?.label == "s")
            #expect(node?.kind == .raw && node?.value == #""x\"#, "the unfinished string is kept as it was")
        }
        // Whatever a reader makes of an unfinished string, what the text gave is kept: it reads as a value that still
        // shows the text's characters (in its label, its value or its rendering), or fails with the reader's error.
        for (text, kept) in [
            (#""x"#, "x"), (#"["x"#, "x"), (#"(String) s = "x"#, "x"), (#"{"a":""#, "a"), (#"- "x"#, "x"),
            (#"- a : "x"#, "x"), (#"<CFString 0x1 [0x2]>{contents = ""#, "CFString")
        ] {
            if let reading = try? DumpReader.read(text, format: format) {
                let shown =
                    (reading.node.label ?? "") + LineRenderer().render(reading.node)
                    + TreeRenderer().render(reading.node)
                #expect(shown.contains(kept), "\(format) \(text): \(shown)")
            }
        }
    }

    @Test(arguments: textFormats)
    func unclosedBracketsStayWithinTheValueBudget(_ format: DumpFormat) throws {
        // A megabyte of openers (a hundred times the budget, deeper than any stack would take by recursion), whatever
        // the format: the tree stops at the budget and says it is incomplete, or the reader says what it could not
        // read. (How long a reading takes, and 100 MB inputs, are the benchmarks' and LargeDumpTests'.)
        let text = String(repeating: "[(", count: 500_000)
        if let reading = try? DumpReader.read(text, format: format, maximumValues: 10_000) {
            #expect(Self.count(reading.node) <= 10_002)
            #expect(
                !reading.isComplete || Self.count(reading.node) <= 2, "\(format): an unclosed text reads as complete")
        }
    }

    /// Each text fixture of a 100-element array, read with a budget of 10 values: the first values come out, the
    /// rest is marked, and the reading says it is incomplete.
    @Test(arguments: [
        "print.txt", "debugPrint.txt", "dump.txt", "po.txt", "nsdescription.txt", "cfdescription.txt", "plist",
        "bplist", "json"
    ])
    func valueBudgetCutsTheTree(_ kind: String) throws {
        let bytes = [UInt8](
            try Data(contentsOf: DumpParsingTests.directory.appendingPathComponent("large-array.\(kind)")))
        let reading = try DumpReader.read(bytes: bytes, maximumValues: 10)
        #expect(!reading.isComplete)
        #expect(Self.count(reading.node) <= 12)
        #expect(Self.containsTruncation(reading.node))
        #expect(
            LineRenderer().render(reading.node).hasPrefix("[0, 1, 2"), "\(kind): \(LineRenderer().render(reading.node))"
        )
        #expect(try DumpReader.read(bytes: bytes).isComplete)
    }

    /// Every fixture cut at ten points: each prefix reads without a crash, as a value or an error.
    @Test func truncatedFixturesReadBestEffort() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: DumpParsingTests.directory.path).filter {
            !$0.hasSuffix(".swift") && !$0.hasSuffix(".sh")
        }
        #expect(files.count > 200)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: DumpParsingTests.directory.appendingPathComponent(file)))
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 10)) {
                // A prefix with something in it reads as a value that shows something, or fails with the reader's own
                // error.
                let prefix = Array(bytes[..<cut])
                if let reading = try? DumpReader.read(bytes: prefix),
                    prefix.contains(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) })
                {
                    #expect(
                        !TreeRenderer().render(reading.node).isEmpty,
                        "\(file) cut at \(cut): \(String(decoding: prefix.prefix(80), as: UTF8.self))")
                    #expect(!PlainJSONRenderer().render(reading.node).isEmpty, "\(file) cut at \(cut)")
                }
            }
        }
    }

    @Test func hostileBinaryPropertyLists() throws {
        // A list that contains itself.
        // object 0 at offset 8: an array holding object 0
        var selfReference: [UInt8] = Array("bplist00".utf8) + [0xA1, 0x00]
        let table = selfReference.count
        selfReference += [0x08]
        selfReference +=
            [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [
                0, 0, 0, 0, 0, 0, 0, UInt8(table)
            ]
        let cycle = Self.failure { try DumpReader.read(bytes: selfReference) }
        #expect(cycle?.contains("object 0 contains itself") == true, "\(cycle ?? "read")")
        // Forty arrays each holding the next one twice: 2^40 paths through 40 objects, read up to the budget.
        var shared: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        for index in 0..<40 {
            offsets.append(shared.count)
            shared += index == 39 ? [0x10, 0x07] : [0xA2, UInt8(index + 1), UInt8(index + 1)]
        }
        let offsetTable = shared.count
        shared += offsets.map { UInt8($0) }
        shared +=
            [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 40] + [0, 0, 0, 0, 0, 0, 0, 0] + [
                0, 0, 0, 0, 0, 0, 0, UInt8(offsetTable)
            ]
        let reading = try DumpReader.read(bytes: shared, maximumValues: 50_000)
        #expect(!reading.isComplete)
        #expect(Self.count(reading.node) <= 50_001 + 40)
        // Offsets, counts and sizes past the end.
        for length in [8, 20, 40, shared.count - 1] {
            // Its trailer (the last 32 bytes) cut off: never a value read from the wrong bytes.
            let reason = Self.failure { try DumpReader.read(bytes: Array(shared[..<length])) }
            let expected = length < 40 ? "too short or no bplist00 header" : "trailer"
            #expect(
                reason?.contains(expected) == true || (length >= 40 && reason?.contains("offset") == true),
                "\(length) bytes: \(reason ?? "read")")
        }
        var wrongTable = shared
        wrongTable[wrongTable.count - 1] = 0xFF
        let wrong = Self.failure { try DumpReader.read(bytes: wrongTable) }
        #expect(wrong?.contains("the offset table lies outside the file") == true, "\(wrong ?? "read")")
    }
}
