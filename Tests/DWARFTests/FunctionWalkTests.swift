import DWARF
import PostmortemCore
import TestSupport
import Testing

/// The DIE walk (Postmortem reads `.debug_info` in place) held to llvm-dwarfdump, an independent reader of the same
/// DIEs: every subprogram and inlined copy with code, in DIE order, with its ranges, call site and the names it states
/// itself, on every DWARF version, form and container the fixtures hold (`DW_FORM_addrx`, `rnglistx`, `strx1`,
/// `implicit_const`, `.debug_ranges` with base selections, compressed sections, type units, a split-DWARF skeleton,
/// Swift, Mach-O dSYMs).
@Suite("DIE walk against llvm-dwarfdump")
struct FunctionWalkTests {
    /// One record as a line both sides can print.
    private static func line(
        inlined: Bool, ranges: [(UInt64, UInt64)], name: String?, linkageName: String?,
        declarationLine: Int, callFile: String?, callLine: Int, callColumn: Int
    ) -> String {
        let spans = ranges.map { "[\(String($0.0, radix: 16)),\(String($0.1, radix: 16)))" }.joined(separator: " ")
        let site = inlined ? " called at \(callFile.map(Self.fileName) ?? "?"):\(callLine):\(callColumn)" : ""
        return
            "\(inlined ? "inlined" : "subprogram") \(spans) name=\(name ?? "-") linkage=\(linkageName ?? "-") decl=\(declarationLine)\(site)"
    }

    private static func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    private func ours(_ name: String) throws -> [String] {
        let file = try DWARFFile(path: Fixtures.path(name))
        return try file.compileUnits().flatMap { unit in
            try file.contents(of: unit).functions.map { record in
                Self.line(
                    inlined: record.isInlined,
                    ranges: record.ranges.map { ($0.lowerBound.rawValue, $0.upperBound.rawValue) },
                    name: record.name, linkageName: record.linkageName, declarationLine: record.declarationLine,
                    callFile: record.callFile, callLine: record.callLine, callColumn: record.callColumn)
            }
        }
    }

    /// The same from `llvm-dwarfdump --debug-info`: DIEs of tag subprogram or inlined_subroutine that state
    /// `DW_AT_low_pc` or `DW_AT_ranges`, outside types (whose member functions are declarations).
    private func theirs(_ name: String) throws -> [String] {
        struct DIE {
            var tag = "", depth = 0
            var low: UInt64?, high: UInt64?, hasRanges = false, ranges: [(UInt64, UInt64)] = []
            var name: String?, linkageName: String?, declarationLine = 0
            var callFile: String?, callLine = 0, callColumn = 0
        }
        var dies: [DIE] = []
        var inRanges = false
        func quoted(_ text: Substring) -> String? {
            guard let open = text.firstIndex(of: "\""), let close = text.lastIndex(of: "\""), open < close else {
                return nil
            }
            return String(text[text.index(after: open)..<close])
        }
        func number(_ text: Substring) -> Int {
            guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return 0 }
            let inside = text[text.index(after: open)..<close]
            return inside.hasPrefix("0x") ? Int(inside.dropFirst(2), radix: 16) ?? 0 : Int(inside) ?? 0
        }
        for line in try Fixtures.run("llvm-dwarfdump", ["--debug-info", Fixtures.path(name)]).split(separator: "\n") {
            if line.hasPrefix("0x"), let colon = line.firstIndex(of: ":") {
                let rest = line[line.index(after: colon)...]
                let tag = rest.drop { $0 == " " }
                dies.append(DIE(tag: String(tag.prefix { $0 != " " }), depth: (rest.count - tag.count) / 2))
                inRanges = false
                continue
            }
            guard !dies.isEmpty else { continue }
            let text = line.drop { $0 == " " }
            if text.hasPrefix("DW_AT_") { inRanges = false }
            if text.hasPrefix("DW_AT_low_pc") {
                dies[dies.count - 1].low = UInt64(number(text))
            } else if text.hasPrefix("DW_AT_high_pc") {
                dies[dies.count - 1].high = UInt64(number(text))
            } else if text.hasPrefix("DW_AT_ranges") {
                dies[dies.count - 1].hasRanges = true; inRanges = true
            } else if text.hasPrefix("DW_AT_name") {
                dies[dies.count - 1].name = quoted(text)
            } else if text.hasPrefix("DW_AT_linkage_name") || text.hasPrefix("DW_AT_MIPS_linkage_name") {
                if dies[dies.count - 1].linkageName == nil { dies[dies.count - 1].linkageName = quoted(text) }
            } else if text.hasPrefix("DW_AT_decl_line") {
                dies[dies.count - 1].declarationLine = number(text)
            } else if text.hasPrefix("DW_AT_call_file") {
                dies[dies.count - 1].callFile = quoted(text)
            } else if text.hasPrefix("DW_AT_call_line") {
                dies[dies.count - 1].callLine = number(text)
            } else if text.hasPrefix("DW_AT_call_column") {
                dies[dies.count - 1].callColumn = number(text)
            } else if inRanges, text.hasPrefix("[0x"), !text.contains(":") {
                let bounds = text.dropFirst().split(whereSeparator: { ", )".contains($0) }).compactMap {
                    UInt64($0.dropFirst(2), radix: 16)
                }
                if bounds.count == 2, bounds[1] > bounds[0] {
                    dies[dies.count - 1].ranges.append((bounds[0], bounds[1]))
                }
            }
        }
        var lines: [String] = []
        var typeDepth: Int?
        for die in dies {
            if let depth = typeDepth, die.depth > depth { continue }
            typeDepth =
                ["DW_TAG_structure_type", "DW_TAG_class_type", "DW_TAG_union_type"].contains(die.tag) ? die.depth : nil
            guard die.tag == "DW_TAG_subprogram" || die.tag == "DW_TAG_inlined_subroutine",
                die.low != nil || die.hasRanges
            else { continue }
            var ranges = die.ranges
            if let low = die.low, let high = die.high { ranges = high > low ? [(low, high)] : [] }
            let inlined = die.tag == "DW_TAG_inlined_subroutine"
            lines.append(
                Self.line(
                    inlined: inlined, ranges: ranges, name: die.name, linkageName: die.linkageName,
                    declarationLine: die.declarationLine, callFile: inlined ? die.callFile : nil,
                    callLine: inlined ? die.callLine : 0, callColumn: inlined ? die.callColumn : 0))
        }
        return lines
    }

    @Test(arguments: DWARFFileTests.fixturesOfEveryKind)
    func recordsMatchLLVMDwarfdump(_ name: String) throws {
        let expected = try theirs(name)
        #expect(expected.count >= (name == "sensors-split-dwarf" ? 0 : 3), "the fixture has functions with code")
        let found = try ours(name)
        #expect(found.count == expected.count)
        for (index, (mine, other)) in zip(found, expected).enumerated() where mine != other {
            Issue.record("record \(index): ours \(mine), llvm-dwarfdump \(other)")
            break
        }
    }
}
