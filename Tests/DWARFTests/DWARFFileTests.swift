import DWARF
import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

@Suite("DWARF units, functions and line tables")
struct DWARFFileTests {
    /// The number of compile (not type) units llvm-dwarfdump sees.
    private func llvmCompileUnitCount(_ name: String) throws -> Int {
        try Fixtures.run("llvm-dwarfdump", ["--debug-info", Fixtures.path(name)])
            .split(separator: "\n").filter { $0.contains("DW_TAG_compile_unit") || $0.contains("DW_TAG_skeleton_unit") }
            .count
    }

    @Test(arguments: [
        ("sensors-gcc-dwarf2", 2), ("sensors-gcc-dwarf3", 3), ("sensors-clang-dwarf4", 4), ("sensors-gcc-dwarf5", 5),
        ("sensors-clang-dwarf5", 5), ("sensors-gcc-dwarf4-gz", 4),
        ("inventory-gcc-typeunits4", 4), ("inventory-gcc-typeunits5", 5), ("shapes-swift-Onone", 4),
        ("sensors-split-dwarf", 5)
    ])
    func compileUnitsAndVersions(_ name: String, _ version: Int) throws {
        let units = try DWARFFile(path: Fixtures.path(name)).compileUnits()
        #expect(units.count == (try llvmCompileUnitCount(name)), "type units are not compile units")
        // The fixture's own unit: the one built in "." (a debug prefix map; a split-DWARF skeleton has no name).
        let main = try #require(units.first { $0.compilationDirectory == "." })
        #expect(main.version == version)
        #expect(!main.ranges.isEmpty, "the unit's code ranges come from low/high pc or its range list")
        // What lookups read: the same units, without their names and producers.
        let bare = try DWARFFile(path: Fixtures.path(name)).compileUnits(withNames: false)
        #expect(
            bare
                == units.map { unit in
                    var stripped = unit
                    stripped.name = nil
                    stripped.producer = nil
                    return stripped
                })
        #expect(
            name == "sensors-split-dwarf" || units.contains { $0.name != nil && $0.producer != nil },
            "a skeleton unit has no name")
    }

    /// `sample_at` inlines adjust, which inlines scale, which inlines clamp: each call site is the
    /// line of the source that calls the next function. (Strict DWARF 2 has no call sites: `DW_AT_call_file` is DWARF 3.)
    @Test(arguments: ["sensors-gcc-dwarf3", "sensors-gcc-dwarf5", "sensors-clang-dwarf4", "sensors-clang-dwarf5"])
    func inlineChainsCarryTheirCallSites(_ name: String) throws {
        let file = try DWARFFile(path: Fixtures.path(name))
        let unit = try #require(try file.compileUnits().first { $0.name?.hasSuffix("sensors.c") == true })
        let functions = try file.contents(of: unit).functions.map(file.completingNames)
        let source = try String(contentsOf: Fixtures.sources.appendingPathComponent("sensors.c"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let sampleAt = try #require(functions.firstIndex { $0.name == "sample_at" && $0.parent == nil })
        var inlined = 0
        for record in functions where record.isInlined {
            let name = try #require(record.name)
            #expect(record.parent != nil)
            #expect(record.callFile == "./sensors.c" || record.callFile?.hasSuffix(".h") == true)
            if record.callFile == "./sensors.c" {
                let callLine = source[record.callLine - 1]
                #expect(callLine.contains(name + "("), "line \(record.callLine) calls \(name): \(callLine)")
            }
            inlined += 1
        }
        #expect(inlined >= 3)
        #expect(functions.contains { $0.name == "adjust" && $0.isInlined && $0.parent == sampleAt })
    }

    @Test func linkageNamesComeThroughOriginsAndSpecifications() throws {
        let file = try DWARFFile(path: Fixtures.path("inventory-gcc"))
        let unit = try #require(try file.compileUnits().first { $0.name == "inventory.cpp" })
        let functions = try file.contents(of: unit).functions.map(file.completingNames)
        let inlinedAdd = try #require(functions.first { $0.isInlined && $0.name?.hasPrefix("checked_add") == true })
        #expect(inlinedAdd.linkageName?.hasPrefix("_ZN9warehouse6detail11checked_add") == true)
        #expect(functions.contains { !$0.isInlined && $0.linkageName?.contains("6Report8describe") == true })
    }

    /// The order units are read in (backward, forward, the last then the first again) changes nothing read: every
    /// unit's functions, with their names completed (through units read before, or not yet), and the unit list read
    /// again afterwards, are those of a fresh file.
    @Test(arguments: ["shapes-swift-O", "inventory-gcc-typeunits5", "sensors-gcc-dwarf5"])
    func readingOrderChangesNothingRead(_ name: String) throws {
        func functions(_ file: DWARFFile, _ unit: CompileUnit) throws -> [String] {
            try file.contents(of: unit).functions.map(file.completingNames).map {
                "\($0.name ?? "-") \($0.linkageName ?? "-") \($0.ranges)"
            }
        }
        let fresh = try DWARFFile(path: Fixtures.path(name))
        let units = try fresh.compileUnits()
        let expected = try units.map { try functions(fresh, $0) }
        let moved = try DWARFFile(path: Fixtures.path(name))
        #expect(try moved.compileUnits() == units)
        for position in Array(units.indices.reversed()) + Array(units.indices) + [units.count - 1, 0] {
            #expect(try functions(moved, units[position]) == expected[position], "unit \(position)")
        }
        #expect(try moved.compileUnits() == units, "the unit list is read again from the first unit")
        #expect(expected.contains { !$0.isEmpty })
    }

    /// Every row of every unit's line program, as Postmortem decodes it, matches llvm-dwarfdump's rows: address,
    /// line, column and file (line tables of versions 2 to 5, compressed sections, type units, Swift, split DWARF's
    /// skeleton, Mach-O dSYMs of two architectures). Files are compared by name without their folder: the DWARF 5 file register, which made the project
    /// decode line tables itself, shows as another file's name.
    /// Fixtures of every DWARF version, producer and container the tests build.
    static let fixturesOfEveryKind = [
        "inventory-clang", "inventory-gcc", "shapes-swift-Onone", "shapes-swift-O", "sensors-clang-dwarf5",
        "sensors-gcc-dwarf2", "sensors-gcc-dwarf3", "sensors-gcc-dwarf5", "sensors-clang-dwarf4", "sensors-clang-gz",
        "sensors-gcc-dwarf4-gz", "inventory-gcc-typeunits4", "inventory-gcc-typeunits5", "libgeometry.so",
        "sensors-split-dwarf", "../Apple/bin/App-arm64.dSYM/Contents/Resources/DWARF/App-arm64",
        "../Apple/bin/App-x86_64.dSYM/Contents/Resources/DWARF/App-x86_64"
    ]

    @Test(arguments: fixturesOfEveryKind)
    func lineRowsMatchLLVMDwarfdump(_ name: String) throws {
        func fileName(_ path: Substring) -> Substring { path.split(separator: "/").last ?? path }
        let file = try DWARFFile(path: Fixtures.path(name))
        var ours: [String] = []
        for unit in try file.compileUnits() {
            let table = try file.contents(of: unit).lineTable
            for sequence in table.sequences {
                for row in sequence.rows {
                    let path = Int(row.file) < table.files.count ? table.files[Int(row.file)][...] : "?"
                    ours.append("\(row.address.rawValue) \(row.line) \(row.column) \(fileName(path))")
                }
            }
        }
        // llvm-dwarfdump prints each table's header (its `file_names[N]:` entries, each with a `name:` line), then
        // its rows: address, line, column, file index, ….
        var theirs: [String] = []
        var names: [Int: Substring] = [:]
        var pendingFile: Int?
        for line in try Fixtures.run("llvm-dwarfdump", ["--debug-line", Fixtures.path(name)]).split(separator: "\n") {
            if line.hasPrefix("debug_line[") { names = [:] }
            if line.hasPrefix("file_names["), let close = line.firstIndex(of: "]") {
                pendingFile = Int(
                    line[line.index(after: line.firstIndex(of: "[")!)..<close].trimmingCharacters(in: .whitespaces))
                continue
            }
            let trimmed = line.drop { $0 == " " }
            if let index = pendingFile, trimmed.hasPrefix("name: \"") {
                names[index] = fileName(trimmed.dropFirst(7).dropLast())
                pendingFile = nil
                continue
            }
            guard line.hasPrefix("0x"), !line.contains("end_sequence") else { continue }
            let fields = line.split(separator: " ")
            guard let address = UInt64(fields[0].dropFirst(2), radix: 16), let index = Int(fields[3]) else { continue }
            theirs.append("\(address) \(fields[1]) \(fields[2]) \(names[index] ?? "?")")
        }
        #expect(!theirs.isEmpty)
        #expect(ours.sorted() == theirs.sorted())
    }
}
