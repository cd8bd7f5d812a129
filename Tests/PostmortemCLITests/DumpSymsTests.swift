import Foundation
import TestSupport
import Testing

/// `postmortem dump-syms` against Mozilla's dump_syms 2.3.5 (`--inlines`), the tool crash pipelines make Breakpad symbol
/// files with, on binaries built from source here: the same MODULE line, and the same FUNC ranges, line records, INLINE
/// records, PUBLIC addresses and STACK CFI records, record for record.
///
/// Names are compared for C and Swift functions: dump_syms demangles C++ with the `cpp_demangle` crate (which drops `&&`
/// from forwarded parameter packs and writes `(unsigned long)0` for `0ul`), where Postmortem uses the C++ runtime's
/// demangler. Swift names are the simplified form with parameter types in both.
@Suite(.serialized)
struct DumpSymsTests {
    static let fixtureBinaries =
        [
            "inventory-gcc", "inventory-clang", "inventory-gcc-typeunits5", "sensors-clang-dwarf4",
            "sensors-clang-dwarf5",
            "sensors-gcc-dwarf2", "sensors-gcc-dwarf4-gz", "sensors-gcc-dwarf5", "libgeometry.so", "shapes-swift-O",
            "shapes-swift-Onone"
        ].map { Paths.fixture($0) }
        + ["SampleCrashes/linux-c-signal/app", "SampleCrashes/linux-c-signal/libsens.so"].map {
            Paths.packageRoot.appendingPathComponent($0).path
        }

    static let kinds = ["FUNC range", "line", "INLINE", "STACK CFI INIT", "STACK CFI", "PUBLIC address"]

    /// dump_syms' file of `binaries` (several: merged, as for a stripped binary and its debug file), and the empty
    /// directory it ran in (it makes relative source paths absolute against it).
    static func theirs(_ binaries: [String]) throws -> (text: String, workingDirectory: String) {
        let directory = Fixtures.scratchDirectory("dump-syms-cwd")
        let result = try Command.run(
            try CrashpadDumps.oracle("dump_syms"), ["--inlines"] + binaries,
            currentDirectory: URL(fileURLWithPath: directory))
        try #require(result.status == 0, "dump_syms \(binaries): \(result.standardError)")
        return (result.standardOutput, directory)
    }

    static func ours(_ arguments: [String]) throws -> String {
        let result = try Command.run(Paths.postmortem, ["dump-syms"] + arguments)
        try #require(result.status == 0, "postmortem dump-syms \(arguments): \(result.standardError)")
        return result.standardOutput
    }

    /// Every record kind agrees on at least 99.5% of records, and C functions have the same names.
    static func expectAgreement(ours: String, theirs: (text: String, workingDirectory: String), label: String) {
        expectAgreement(ours: ours, theirs: theirs.text, workingDirectory: theirs.workingDirectory, label: label)
    }

    static func expectAgreement(ours: String, theirs: String, workingDirectory: String, label: String) {
        let mine = SymbolFileRecords(text: ours),
            other = SymbolFileRecords(text: theirs, workingDirectory: workingDirectory)
        #expect(mine.module == other.module, "\(label)")
        #expect(
            !(other.records["FUNC range"] ?? []).isEmpty || !(other.records["PUBLIC address"] ?? []).isEmpty,
            "\(label): dump_syms wrote nothing to compare")
        for kind in kinds {
            let (share, onlyOurs, onlyTheirs) = mine.agreement(with: other, on: kind)
            #expect(
                share >= 0.995,
                "\(label) \(kind): \(String(format: "%.3f", share * 100))% agree; only ours \(onlyOurs), only theirs \(onlyTheirs)"
            )
        }
        // C names: no parameters, templates, Swift qualification or spaces (beyond the one after the address).
        let cNames = { (records: SymbolFileRecords) in
            (records.records["FUNC name"] ?? []).filter { name in
                !name.contains { "(<.?".contains($0) } && name.split(separator: " ").count == 2
            }
        }
        #expect(
            cNames(other).subtracting(cNames(mine)).isEmpty,
            "\(label): C functions named otherwise: \(cNames(other).subtracting(cNames(mine)).sorted().prefix(5))")
    }

    @Test(arguments: fixtureBinaries)
    func agreesWithDumpSyms(_ binary: String) throws {
        Self.expectAgreement(ours: try Self.ours([binary]), theirs: try Self.theirs([binary]), label: binary)
    }

    /// Each slice of a universal dSYM (the Apple fixtures' App, x86_64 and arm64), chosen with `--arch`: every FUNC,
    /// line, INLINE and PUBLIC record as dump_syms writes it for that slice, and the MODULE line's system, architecture
    /// and debug id. Two differences, on purpose: the module is named by the binary (`App`, the name a minidump's
    /// module has and a symbol store is searched by) where dump_syms 2.3.5 names it by the bundle (`App.dSYM`), and
    /// source paths are normalized where dump_syms writes the `.` compilation directory as it is (`././sensors.c`).
    @Test(arguments: ["arm64", "x86_64"])
    func eachSliceOfAUniversalDSYMAgreesWithDumpSyms(_ architecture: String) throws {
        let dSYM = Paths.packageRoot.appendingPathComponent("Tests/Fixtures/Apple/bin/App.dSYM").path
        let ours = try Self.ours(["--arch", architecture, dSYM])
        let theirs = try Self.theirs(["--arch", architecture, dSYM])
        let mine = SymbolFileRecords(text: ours),
            other = SymbolFileRecords(text: theirs.text, droppingDotComponents: true)
        #expect(
            mine.module.split(separator: " ").dropLast() == other.module.split(separator: " ").dropLast(),
            "\(mine.module) / \(other.module)")
        #expect(mine.module.hasSuffix(" App") && mine.module.contains("Mac \(architecture) "), "\(mine.module)")
        #expect(!(other.records["FUNC range"] ?? []).isEmpty)
        for kind in ["FUNC range", "FUNC name", "line", "INLINE", "INLINE origin", "PUBLIC address"] {
            let (share, onlyOurs, onlyTheirs) = mine.agreement(with: other, on: kind)
            #expect(share == 1, "\(architecture) \(kind): only ours \(onlyOurs), only theirs \(onlyTheirs)")
        }
        // Without --arch: one line naming the slices.
        let bare = try Command.run(Paths.postmortem, ["dump-syms", dSYM])
        #expect(
            bare.status == 1 && bare.standardError.contains("x86_64, arm64; choose one with --arch"),
            "\(bare.standardError)")
    }

    /// A Mach-O program whose dSYM lies beside it: its functions come from the dSYM (as dump_syms writes them given the
    /// dSYM), its STACK CFI from its compact unwind information (as dump_syms writes it given the program).
    @Test func aMachOProgramTakesItsFunctionsFromItsDSYMAndItsUnwindRulesFromItself() throws {
        let app = Paths.packageRoot.appendingPathComponent("SampleCrashes/apple-objc-arm64/App").path
        let result = try Command.run(Paths.postmortem, ["dump-syms", app])
        #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
        let mine = SymbolFileRecords(text: result.standardOutput)
        let fromDSYM = SymbolFileRecords(text: try Self.theirs([app + ".dSYM"]).text, droppingDotComponents: true)
        for kind in ["FUNC range", "line", "INLINE", "PUBLIC address"] {
            #expect(mine.agreement(with: fromDSYM, on: kind).share == 1, "\(kind)")
        }
        let fromProgram = SymbolFileRecords(text: try Self.theirs([app]).text)
        #expect(!(fromProgram.records["STACK CFI INIT"] ?? []).isEmpty)
        #expect(mine.records["STACK CFI INIT"] == fromProgram.records["STACK CFI INIT"])
    }

    /// Compact unwind information of both slices of a universal program (rbp frames saving rbx, r14 and r15; ARM64
    /// frames saving x19–x22 and d8–d9; frameless leaves): every STACK CFI INIT record as dump_syms writes it, but for
    /// the names of saved D registers, which dump_syms takes from the wrong bits (it names the pair of
    /// `UNWIND_ARM64_FRAME_D8_D9_PAIR` d14 and d15): their offsets are compared, and their names are those of the
    /// function's prologue (`stp d9, d8, [sp, #0x40]` in `llvm-objdump -d`).
    @Test(arguments: ["x86_64", "arm64"])
    func compactUnwindInformationAgreesWithDumpSyms(_ architecture: String) throws {
        let app = Paths.packageRoot.appendingPathComponent("Tests/Fixtures/Apple/bin/App").path
        let mine = SymbolFileRecords(text: try Self.ours(["--arch", architecture, app]))
        let theirs = SymbolFileRecords(text: try Self.theirs(["--arch", architecture, app]).text)
        let withoutDNames = { (records: Set<String>) in Set(records.map { $0.replacing(/d[0-9]+:/, with: "d:") }) }
        let ours = mine.records["STACK CFI INIT"] ?? [], dumpSyms = theirs.records["STACK CFI INIT"] ?? []
        #expect(dumpSyms.count >= 4)
        #expect(
            withoutDNames(ours) == withoutDNames(dumpSyms),
            "only ours \(ours.subtracting(dumpSyms)), only theirs \(dumpSyms.subtracting(ours))")
        if architecture == "arm64" {
            #expect(
                ours.contains { $0.hasPrefix("804 ") && $0.hasSuffix("d8: .cfa -24 + ^ d9: .cfa -32 + ^") },
                "\(ours.sorted())")
            let objdump = try #require(Paths.llvmObjdump, "llvm-objdump is needed (the Swift toolchain has one)")
            let prologue = try Command.run(
                objdump, ["-d", "--arch", "arm64", "--start-address=0x100000804", "--stop-address=0x100000810", app])
            #expect(prologue.standardOutput.contains("stp\td9, d8, [sp, #0x40]"), "\(prologue.standardOutput)")
        }
    }

    /// Swift functions are named as dump_syms names them (`Canvas.add(Shape)`, `closure #1 (Int) in restock(_: inout
    /// Inventory)`) but where dump_syms' demangler, older than the toolchain's, puts a partial application's words
    /// after the name (`closure #1 … in f()partial apply`) or cannot read a newer mangling, and where ours declines one
    /// (`Tt` specializations, constant propagation) and the name is the runtime's simplified one.
    @Test func swiftFunctionsAreNamedAsDumpSymsNamesThem() throws {
        let sample = Paths.packageRoot.appendingPathComponent("SampleCrashes/linux-swift-backtrace").path
        // The toolchain's standard library: some 20,000 Swift functions of every kind (thunks, witnesses, closures).
        let demangler = try Command.run("/bin/sh", ["-c", "readlink -f \"$(command -v swift-demangle)\""])
        let toolchain = URL(fileURLWithPath: demangler.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib/swift/linux")
        let binaries = [
            Paths.fixture("shapes-swift-O"), Paths.fixture("shapes-swift-Onone"), sample + "/inventory",
            toolchain.appendingPathComponent("libswiftCore.so").path
        ]
        var compared = 0
        var differing: [String] = []
        for binary in binaries {
            let names = { (text: String) in
                let records = SymbolFileRecords(text: text)
                return (records.records["FUNC name"] ?? []).union(records.records["PUBLIC name"] ?? [])
            }
            let mine = names(try Self.ours([binary])), theirs = names(try Self.theirs([binary]).text)
            // Swift names: demangled ones hold a `(`; C names are checked by the agreement tests.
            let swiftTheirs = theirs.filter { $0.contains("(") && !$0.contains("::") }
            compared += swiftTheirs.count
            differing += swiftTheirs.subtracting(mine).filter { !$0.hasSuffix("partial apply") }.sorted()
        }
        #expect(compared > 10_000, "\(compared)")
        #expect(
            Double(differing.count) <= 0.005 * Double(compared),
            "\(differing.count) of \(compared) named otherwise: \(differing.prefix(8))")
    }

    /// The programs the minidump tests crash, built here: C with a shared library, C++ with exceptions, Swift.
    @Test func agreesWithDumpSymsOnCrashingPrograms() throws {
        let directory = try CrashingPrograms.directory.get()
        for program in ["threads", "libchain.so", "terminate", "crashes"] {
            let binary = directory + "/" + program
            Self.expectAgreement(ours: try Self.ours([binary]), theirs: try Self.theirs([binary]), label: program)
        }
    }

    /// A stripped binary whose debug file lies beside it (`.gnu_debuglink`): the debug file is found, and the records
    /// equal dump_syms' given both files; the MODULE line names the binary.
    @Test func findsTheDebugFileOfAStrippedBinary() throws {
        let directory = Fixtures.scratchDirectory("dump-syms-stripped")
        let binary = directory + "/inventory"
        try FileManager.default.copyItem(atPath: Paths.fixture("inventory-gcc"), toPath: binary)
        for arguments in [
            ["--only-keep-debug", binary, binary + ".debug"], ["--strip-all", binary],
            ["--add-gnu-debuglink=" + binary + ".debug", binary]
        ] {
            let result = try Command.run(
                "/usr/bin/objcopy", arguments, currentDirectory: URL(fileURLWithPath: directory))
            try #require(result.status == 0, "objcopy \(arguments): \(result.standardError)")
        }
        let ours = try Self.ours([binary])
        #expect(ours.hasPrefix("MODULE Linux x86_64 ") && ours.split(separator: "\n")[0].hasSuffix(" inventory"))
        #expect(ours.contains("\nFUNC "), "the stripped binary's functions come from its debug file")
        Self.expectAgreement(
            ours: ours, theirs: try Self.theirs([binary, binary + ".debug"]), label: "stripped inventory")
    }

    /// `--store DIR` writes `DIR/NAME/DEBUGID/NAME.sym`, the layout symbol servers and minidump-stackwalk read.
    @Test func storesByNameAndDebugID() throws {
        let store = Fixtures.scratchDirectory("dump-syms-store")
        let binaries = [Paths.fixture("libgeometry.so"), Paths.fixture("inventory-gcc")]
        _ = try Self.ours(["--store", store] + binaries)
        for binary in binaries {
            let module = try Self.theirs([binary]).text.prefix { $0 != "\n" }.split(separator: " ")
            let (name, id) = (String(module[4]), String(module[3]))
            let written = try String(contentsOfFile: "\(store)/\(name)/\(id)/\(name).sym", encoding: .utf8)
            #expect(written.hasPrefix("MODULE Linux x86_64 \(id) \(name)\n"))
        }
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: store).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    /// minidump-stackwalk walks and names a Crashpad dump the same with a store `dump-syms --store` wrote as with
    /// dump_syms' (a C program and its library).
    @Test func minidumpStackwalkReadsOurStore() throws {
        let directory = try CrashingPrograms.directory.get()
        let dump = try CrashpadDumps.dump(of: CrashingPrograms.Crash(program: "threads"), in: directory)
        let binaries = ["threads", "libchain.so"].map { directory + "/" + $0 }
        let ourStore = Fixtures.scratchDirectory("dump-syms-our-store")
        _ = try Self.ours(["--store", ourStore] + binaries)
        func frames(_ store: String) throws -> [String] {
            let report = try CrashpadDumps.stackwalk(dump, symbols: store)
            let threads = report["threads"] as? [[String: Any]] ?? []
            return threads.flatMap { thread in
                (thread["frames"] as? [[String: Any]] ?? []).map { frame in
                    ["module", "module_offset", "function", "file", "line", "trust"].map { "\(frame[$0] ?? "-")" }
                        .joined(separator: " ")
                }
            }
        }
        let theirs = try frames(try CrashpadDumps.symbolStore(of: binaries))
        let ours = try frames(ourStore)
        #expect(ours == theirs)
        #expect(
            ours.contains { $0.contains(" leaf ") || $0.contains("chain") },
            "no frame was named from the store: \(ours.prefix(5))")
    }

    /// What is not an ELF binary with a build-id gets one line naming the file and what is wrong, exit status 1.
    @Test func badInputIsOneLine() throws {
        let directory = Fixtures.scratchDirectory("dump-syms-bad")
        let text = directory + "/notes.txt"
        try "not a binary\n".write(toFile: text, atomically: true, encoding: .utf8)
        let noBuildID = directory + "/no-build-id"
        let build = try Command.run(
            "/usr/bin/gcc", ["-x", "c", "-", "-o", noBuildID, "-Wl,--build-id=none"],
            input: "int main(void) { return 0; }\n")
        try #require(build.status == 0, "\(build.standardError)")
        for (path, words) in [
            (text, "no ELF or Mach-O header"), (directory + "/missing", "missing"), (noBuildID, "no build-id")
        ] {
            let result = try Command.run(Paths.postmortem, ["dump-syms", path])
            #expect(result.status == 1, "\(path)")
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(path) && lines[0].contains(words), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
    }
}
