import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

/// Bad input gets one clear line naming the file or the address, the rest still resolves, and nothing crashes.
@Suite("Bad input")
struct BadInputTests {
    static let sensors = Paths.fixture("sensors-gcc-dwarf5")

    /// A fresh directory for files the test makes; removed when the test ends.
    final class Scratch {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("postmortem-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    /// Runs `resolve` on `object` and checks the one-line error and the exit status.
    private func expectOneLineError(object: String, containing fragments: [String], status: Int32 = 1) throws {
        let result = try Command.postmortem(["resolve", "-o", object, "0x12a0"])
        #expect(result.status == status, "exit \(result.status): \(result.standardError)")
        #expect(result.errorLines.count == 1, "expected one line on stderr, got: \(result.standardError)")
        let line = try #require(result.errorLines.first)
        #expect(line.hasPrefix("postmortem: \(object)"), "the error names the file: \(line)")
        for fragment in fragments { #expect(line.contains(fragment), "\(line) lacks \(fragment)") }
    }

    @Test(
        "A bad option value is one line, worded alike by every command (resolve read with or without ArgumentParser), and status 64"
    )
    func badOptionValuesAreWordedAlike() throws {
        let object = Paths.fixture("sensors-gcc-dwarf5")
        let log = "SampleCrashes/linux-c-sensors/crash.txt"
        let architectures =
            "Please provide one of the following: x86_64, x86_64h, i386, arm64, arm64e, arm64_32, armv7, armv7s, armv7k, arm, riscv64, ppc64le, s390x"
        for (arguments, expected) in [
            (
                ["resolve", "-o", object, "--arch", "sparc", "0x12a0"],
                "the value 'sparc' is invalid for '--arch <arch>'. \(architectures) (see 'postmortem resolve --help')"
            ),
            (
                ["atos", "-o", object, "-arch", "sparc", "0x12a0"],
                "the value 'sparc' is invalid for '-arch <arch>'. \(architectures) (see 'postmortem atos --help')"
            ),
            (
                ["info", "symbol", "-o", object, "--arch", "sparc", "0x12a0"],
                "the value 'sparc' is invalid for '--arch <arch>'. \(architectures) (see 'postmortem info symbol --help')"
            ),
            (
                ["symbolicate", "-o", object, "-arch", "sparc", log],
                "the value 'sparc' is invalid for '-arch <arch>'. \(architectures) (see 'postmortem symbolicate --help')"
            ),
            (
                ["resolve", "-o", object, "-l", "zz", "0x12a0"],
                "the value 'zz' is invalid for '-l <load-address>' (see 'postmortem resolve --help')"
            ),
            (
                ["resolve", "-o", object, "--slide=-1", "0x12a0"],
                "the value '-1' is invalid for '--slide <slide>' (see 'postmortem resolve --help')"
            ),
            (
                ["symbolicate", "-o", object, "-l", "zz", log],
                "the value 'zz' is invalid for '-l <load-address>' (see 'postmortem symbolicate --help')"
            ),
            (
                ["cache", "build", "--arch", "sparc", object],
                "the value 'sparc' is invalid for '--arch <arch>'. Please provide one of the following: -, x86_64, x86_64h, i386, arm64, arm64e, arm64_32, armv7, armv7s, armv7k, arm, riscv64, ppc64le, s390x (see 'postmortem cache build --help')"
            ),
            (
                ["po", "--style", "fancy", log],
                "the value 'fancy' is invalid for '--style <style>'. Please provide one of 'tree', 'line' or 'json' (see 'postmortem po --help')"
            ),
            (
                ["resolve", "-o", object, "-l", "0x1000", "-s", "0x10", "0x12a0"],
                "give either --load-address or --slide, not both"
            ),
            (["resolve", "0x12a0"], "missing expected argument '--object <object>' (see 'postmortem resolve --help')"),
            (
                ["info", "line", "-o", object, "--inlines", "0x12a0"],
                "unknown option '--inlines' (see 'postmortem info line --help')"
            ),
            (
                ["dump-syms", object, object],
                "several binaries need --store DIR (one symbol file each) (see 'postmortem dump-syms --help')"
            ),
            (["core2md", log], "missing expected argument '--output <output>' (see 'postmortem core2md --help')"),
            (
                ["symbolicat", log],
                "'symbolicat' is not a command (resolve, atos, info, images, symbolicate, stack, core2md, dump-syms, group, po, cache, serve); see 'postmortem --help'"
            )
        ] {
            let run = try Command.postmortem(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.errorLines == ["postmortem: " + expected], "\(arguments)")
            #expect(run.standardOutput.isEmpty)
        }
    }

    @Test func missingFile() throws {
        try expectOneLineError(object: "/nonexistent/app", containing: ["cannot open", "No such file"])
    }

    @Test func directory() throws {
        try expectOneLineError(object: Paths.fixtures.path, containing: ["is a directory"])
    }

    @Test func textFile() throws {
        try expectOneLineError(
            object: Paths.packageRoot.appendingPathComponent("README.md").path, containing: ["not an object file"])
    }

    @Test(arguments: [3_000, 64, 10])
    func truncatedELF(keeping bytes: Int) throws {
        let scratch = try Scratch()
        let truncated = scratch.path("truncated-\(bytes)")
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.sensors))
        try data.prefix(bytes).write(to: URL(fileURLWithPath: truncated))
        try expectOneLineError(object: truncated, containing: ["malformed object file"])
    }

    @Test func corruptDebugInfoFallsBackToTheSymbolTable() throws {
        let scratch = try Scratch()
        let corrupt = scratch.path("corrupt-debug-info")
        var data = try Data(contentsOf: URL(fileURLWithPath: Self.sensors))
        let section = try #require(try ObjectFileReader.read(path: Self.sensors).section(named: ".debug_info"))
        // Keep the unit header's length, scramble everything after it.
        let start = Int(section.fileOffset) + 4, end = Int(section.fileOffset + section.size)
        for index in start..<end { data[index] = data[index] &* 7 &+ 13 }
        try data.write(to: URL(fileURLWithPath: corrupt))

        let result = try Command.postmortem(["resolve", "-o", corrupt, "0x12a0", "0x1390"])
        #expect(result.status == 0)
        #expect(result.outputLines.count == 2)
        // The symbol table still names the functions; the DWARF problem is one line naming the file.
        #expect(
            result.outputLines.first?.hasPrefix("sample_at (in corrupt-debug-info)") == true, "\(result.standardOutput)"
        )
        #expect(
            result.outputLines.last?.hasPrefix("unit_name (in corrupt-debug-info)") == true, "\(result.standardOutput)")
        #expect(result.errorLines.allSatisfy { $0.hasPrefix("postmortem: \(corrupt)") }, "\(result.standardError)")
    }

    /// A DIE that names itself as its sibling (Tests/Fixtures/sibling-cycle.py): the walk stops, the unit is reported
    /// damaged once, and the symbol table still answers. Run under `timeout`, so a walk that goes round fails the test.
    @Test(arguments: [["--no-cache"], []])
    func siblingCycleEndsTheWalk(_ cache: [String]) throws {
        let fixture = Paths.fixture("sensors-sibling-cycle")
        let result = try Command.run(
            "/usr/bin/timeout", ["20", Paths.postmortem, "resolve"] + cache + ["-o", fixture, "0x12a0", "0x1290"],
            environment: ["POSTMORTEM_CACHE_DIR": Command.indexCacheDirectory, "POSTMORTEM_CACHE_WRITE": "foreground"])
        #expect(result.status == 0, "exit \(result.status) (124: the walk did not end)")
        #expect(
            result.outputLines == [
                "sample_at (in sensors-sibling-cycle) + 16", "sample_at (in sensors-sibling-cycle) + 0"
            ])
        #expect(
            result.errorLines == [
                "postmortem: \(fixture): malformed DWARF: unit at offset 0xc: the DIE at 0xa0 names 0xa0 as its sibling, which does not follow it"
            ])
    }

    @Test func addressOutsideEverySectionStaysAsGiven() throws {
        let result = try Command.postmortem(["resolve", "-o", Self.sensors, "0x12a0", "0xdeadbeef"])
        #expect(result.status == 0)
        #expect(result.outputLines == ["sample_at (in sensors-gcc-dwarf5) (sensors.c:24)", "0xdeadbeef"])
        let json = try Command.postmortem(["resolve", "--json", "-o", Self.sensors, "0xdeadbeef"])
        #expect(
            json.standardOutput.contains(
                "\"unresolvedReason\": \"address 0xdeadbeef is outside every section of sensors-gcc-dwarf5\""))
    }

    @Test func addressThatIsNotANumber() throws {
        let result = try Command.postmortem(["resolve", "-o", Self.sensors, "0x12a0", "main+4", "0x1390"])
        #expect(result.status == 0, "the other addresses were answered")
        #expect(
            result.outputLines == [
                "sample_at (in sensors-gcc-dwarf5) (sensors.c:24)", "unit_name (in sensors-gcc-dwarf5) (sensors.c:43)"
            ])
        #expect(result.errorLines == ["postmortem: 'main+4' is not an address"])

        let nothingUseful = try Command.postmortem(["resolve", "-o", Self.sensors, "main+4"])
        #expect(nothingUseful.status == 1, "no input was an address")
    }

    /// Address tokens are read as the standard library reads numbers (`UInt64(_:radix:)` after an optional `0x`),
    /// though postmortem reads their bytes itself: every token is an address exactly when the library reads one.
    @Test func addressTokensAreReadAsTheStandardLibraryReadsNumbers() throws {
        let tokens = [
            "12a0", "0x12a0", "0X12A0", "+12a0", "-0", "-1", "0x-0", "0x+1390", "0x", "+", "-", "0xx1", "12g0",
            "ffffffffffffffff", "0xffffffffffffffff", "10000000000000000", "0x00000000000012a0", "١٢", "0x12a0é"
        ]
        func expected(_ token: String) -> UInt64? {
            token.hasPrefix("0x") || token.hasPrefix("0X")
                ? UInt64(token.dropFirst(2), radix: 16) : UInt64(token, radix: 16)
        }
        let result = try Command.postmortem(["resolve", "--json", "-o", Self.sensors, "--"] + tokens)
        let lines = result.outputLines
        try #require(lines.count == tokens.count, "\(result.standardOutput)")
        for (token, line) in zip(tokens, lines) {
            if let value = expected(token) {
                #expect(line.hasPrefix("{\"address\": \"\(FileAddress(value))\""), "\(token): \(line)")
            } else {
                #expect(line.contains("\"error\": \"not an address\""), "\(token): \(line)")
            }
        }
    }

    @Test func mismatchedDebugFileIsReportedNotUsed() throws {
        // A file under the debug link's name whose CRC does not match: rejected with the reason.
        let scratch = try Scratch()
        let binary = scratch.path("sensors-stripped")
        try FileManager.default.copyItem(atPath: Paths.fixture("sensors-stripped"), toPath: binary)
        try FileManager.default.copyItem(
            atPath: Paths.fixture("sensors-gcc-dwarf4-gz"), toPath: scratch.path("sensors-stripped.debug"))
        let result = try Command.postmortem(["resolve", "-o", binary, "0x12a0"])
        #expect(result.status == 0)
        #expect(
            result.errorLines.contains {
                $0.contains("sensors-stripped.debug: not used as debug file") && $0.contains("does not match")
            },
            "\(result.standardError)")
        #expect(result.errorLines.contains { $0.contains("no debug information found") }, "\(result.standardError)")
    }

    @Test func usageErrorsExitWith64() throws {
        #expect(try Command.postmortem(["resolve", "0x1"]).status == 64)
        #expect(
            try Command.postmortem(["resolve", "-o", Self.sensors, "-l", "0x1000", "--slide", "0x10", "0x1"]).status
                == 64)
        #expect(try Command.postmortem(["resolve", "-o", Self.sensors, "-l", "nowhere", "0x1"]).status == 64)
    }
}

/// Malformed `.debug_rnglists` headers make Debian's libdwarf free memory twice, and an offset entry past
/// its unit makes it read outside the section (found by `fuzz-dwarf`): such files are kept from libdwarf,
/// said so in one line, and answered from the symbol table.
@Suite("Bad input: range-list headers")
struct RangeListHeaderTests {
    /// A damaged field: its name, the fixture, where in `.debug_rnglists`, the bytes written there, and an
    /// address with the function the symbol table names for it.
    struct Damage: Sendable, CustomTestStringConvertible {
        var field: String, fixture: String, at: Int, bytes: [UInt8], address: String, function: String
        var testDescription: String { field }
    }

    static let damages = [
        Damage(
            field: "version", fixture: "sensors-gcc-dwarf5", at: 4, bytes: [0xFF, 0xFF], address: "0x12a0",
            function: "sample_at"),
        Damage(
            field: "address size", fixture: "sensors-gcc-dwarf5", at: 6, bytes: [0x09], address: "0x12a0",
            function: "sample_at"),
        Damage(
            field: "length", fixture: "sensors-gcc-dwarf5", at: 0, bytes: [0xF0, 0xFF, 0xFF, 0x7F], address: "0x12a0",
            function: "sample_at"),
        // clang's units index their range lists (`DW_FORM_rnglistx`); the fifth offset entry now points far past the unit.
        Damage(
            field: "offset entry", fixture: "libgeometry.so", at: 30, bytes: [0xC2], address: "0x640",
            function: "polygon_area")
    ]

    @Test(arguments: damages)
    func malformedListSectionIsKeptFromLibdwarf(_ damage: Damage) throws {
        let scratch = try BadInputTests.Scratch()
        let source = Paths.fixture(damage.fixture)
        var data = try Data(contentsOf: URL(fileURLWithPath: source))
        let section = try #require(try ObjectFileReader.read(path: source).section(named: ".debug_rnglists"))
        for (index, byte) in damage.bytes.enumerated() { data[Int(section.fileOffset) + damage.at + index] = byte }
        let corrupt = scratch.path("rnglists-\(damage.field.replacingOccurrences(of: " ", with: "-"))")
        try data.write(to: URL(fileURLWithPath: corrupt))
        let result = try Command.postmortem(["resolve", "-o", corrupt, damage.address])
        #expect(result.status == 0, "no crash: \(result.standardError)")
        #expect(
            result.outputLines.first?.hasPrefix("\(damage.function) (in rnglists-") == true,
            "the symbol table answers: \(result.standardOutput)")
        #expect(result.errorLines.count == 1)
        #expect(
            result.errorLines.first?.contains(".debug_rnglists: unit at offset 0") == true, "\(result.standardError)")
    }
}
