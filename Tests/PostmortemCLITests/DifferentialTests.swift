import Foundation
import TestSupport
import Testing

/// Postmortem against `llvm-symbolizer --inlining` on addresses sampled from each fixture's line table:
/// the whole inline chain (linkage name, file, line, column) must agree on every one.
@Suite("Differential: postmortem resolve vs llvm-symbolizer")
struct DifferentialTests {
    /// One fixture: the object given to both tools, where its line table is, and extra arguments.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var object: String
        /// The file whose line table is sampled (the debug file of a stripped binary).
        var lineTableSource: String
        var postmortemArguments: [String] = []
        var symbolizerArguments: [String] = []
        /// The object llvm-symbolizer reads, when not ``object``.
        var symbolizerObject: String?
        /// Arguments for llvm-dwarfdump when sampling (the slice of a universal file).
        var dwarfdumpArguments: [String] = []
        var testDescription: String { name }
    }

    /// A slice of the universal Apple fixture: through the dSYM bundle, or through the binary whose dSYM lies beside it.
    static func apple(_ arch: String, throughBinary: Bool) -> Case {
        let dwarf = "../Apple/bin/App.dSYM/Contents/Resources/DWARF/App"
        return Case(
            name:
                "Mach-O \(arch), \(throughBinary ? "universal binary with its dSYM beside it" : "universal dSYM bundle")",
            object: throughBinary ? "../Apple/bin/App" : "../Apple/bin/App.dSYM", lineTableSource: dwarf,
            postmortemArguments: ["--arch", arch], symbolizerArguments: ["--default-arch=\(arch)"],
            symbolizerObject: throughBinary ? nil : dwarf, dwarfdumpArguments: ["--arch=\(arch)"])
    }

    static let sampleCount = 1_000

    static let cases: [Case] = [
        Case(name: "C, gcc -O2, DWARF 2", object: "sensors-gcc-dwarf2", lineTableSource: "sensors-gcc-dwarf2"),
        Case(name: "C, gcc -O2, DWARF 3", object: "sensors-gcc-dwarf3", lineTableSource: "sensors-gcc-dwarf3"),
        Case(name: "C, gcc -O2, DWARF 5", object: "sensors-gcc-dwarf5", lineTableSource: "sensors-gcc-dwarf5"),
        Case(name: "C, clang -O2, DWARF 4", object: "sensors-clang-dwarf4", lineTableSource: "sensors-clang-dwarf4"),
        Case(name: "C, clang -O2, DWARF 5", object: "sensors-clang-dwarf5", lineTableSource: "sensors-clang-dwarf5"),
        Case(name: "C, gcc -gz, DWARF 4", object: "sensors-gcc-dwarf4-gz", lineTableSource: "sensors-gcc-dwarf4-gz"),
        Case(name: "C, clang -gz, DWARF 5", object: "sensors-clang-gz", lineTableSource: "sensors-clang-gz"),
        Case(name: "C++, g++ -O2", object: "inventory-gcc", lineTableSource: "inventory-gcc"),
        Case(name: "C++, clang++ -O2", object: "inventory-clang", lineTableSource: "inventory-clang"),
        Case(
            name: "C++, g++ type units, DWARF 4", object: "inventory-gcc-typeunits4",
            lineTableSource: "inventory-gcc-typeunits4"),
        Case(
            name: "C++, g++ type units, DWARF 5", object: "inventory-gcc-typeunits5",
            lineTableSource: "inventory-gcc-typeunits5"),
        Case(name: "Swift -O", object: "shapes-swift-O", lineTableSource: "shapes-swift-O"),
        Case(name: "Swift -Onone", object: "shapes-swift-Onone", lineTableSource: "shapes-swift-Onone"),
        Case(name: "shared library", object: "libgeometry.so", lineTableSource: "libgeometry.so"),
        Case(
            name: "stripped, debug file by .gnu_debuglink", object: "sensors-stripped",
            lineTableSource: ".debug/sensors-stripped.debug"),
        Case(
            name: "stripped, debug file by build-id", object: "inventory-stripped",
            lineTableSource: "debug-root/.build-id/77/35fcacf5f084fe2386a32460e1f9267f55abcf.debug",
            postmortemArguments: ["-d", Paths.fixture("debug-root")],
            symbolizerArguments: ["--debug-file-directory", Paths.fixture("debug-root")]),
        apple("arm64", throughBinary: false),
        apple("x86_64", throughBinary: false),
        apple("arm64", throughBinary: true),
        apple("x86_64", throughBinary: true),
        // arm64e code (pointer authentication), its slice labelled as Apple's linker labels it (Tests/Fixtures/Apple/build.sh).
        Case(
            name: "Mach-O arm64e, dSYM bundle", object: "../Apple/bin/Sensors-arm64e.dSYM",
            lineTableSource: "../Apple/bin/Sensors-arm64e.dSYM/Contents/Resources/DWARF/Sensors-arm64e",
            symbolizerObject: "../Apple/bin/Sensors-arm64e.dSYM/Contents/Resources/DWARF/Sensors-arm64e"),
        Case(
            name: "Mach-O arm64e, binary with its dSYM beside it", object: "../Apple/bin/Sensors-arm64e",
            lineTableSource: "../Apple/bin/Sensors-arm64e.dSYM/Contents/Resources/DWARF/Sensors-arm64e")
    ]

    @Test(arguments: cases)
    func agreesWithLLVMSymbolizer(_ fixture: Case) throws {
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is not installed (make test installs it)")
        let object = Paths.fixture(fixture.object)
        let addresses = try LineTableSampler.sample(
            Self.sampleCount, from: Paths.fixture(fixture.lineTableSource),
            dwarfdumpArguments: fixture.dwarfdumpArguments, seed: 0x5EED_0001)
        let input = addresses.map { "0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"

        // Three runs: from the DWARF with no cache, then writing the index cache, then reading it. All three
        // must print the same bytes, and the cache must be read, not rewritten, by the last.
        let arguments = ["resolve", "--json", "-i", "--no-demangle", "-o", object] + fixture.postmortemArguments
        let cache = Fixtures.scratchDirectory("differential-cache")
        let ours = try Command.postmortem(arguments + ["--no-cache"], input: input, cacheDirectory: cache)
        #expect(ours.status == 0, "postmortem failed: \(ours.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).isEmpty, "--no-cache wrote to the cache")
        let writing = try Command.postmortem(arguments, input: input, cacheDirectory: cache)
        // The index file, and the record of the content found at the binary's path.
        let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: cache)
        let files = cacheFiles.filter { $0.hasSuffix(".pmindex") }
        #expect(
            files.count == 1 && cacheFiles.count == 2 && cacheFiles.contains { $0.hasSuffix(".pmplace") },
            "the first run wrote \(cacheFiles)")
        // A rewrite renames a new file over the old (a new inode); a read only marks the file used (its time).
        let written = try files.first.map {
            try FileManager.default.attributesOfItem(atPath: cache + "/" + $0)[.systemFileNumber] as? Int
        }
        let reading = try Command.postmortem(arguments, input: input, cacheDirectory: cache)
        let reread = try files.first.map {
            try FileManager.default.attributesOfItem(atPath: cache + "/" + $0)[.systemFileNumber] as? Int
        }
        #expect(written == reread, "the run with a warm cache rewrote it")
        #expect(
            writing.standardOutput == ours.standardOutput && writing.standardError == ours.standardError,
            "writing the index cache changed the answers")
        #expect(
            reading.standardOutput == ours.standardOutput && reading.standardError == ours.standardError,
            "the index cache changed the answers")
        let theirs = try Command.run(
            symbolizer,
            [
                "--obj=\(fixture.symbolizerObject.map(Paths.fixture) ?? object)", "--inlining", "--no-demangle",
                "--output-style=JSON"
            ]
                + fixture.symbolizerArguments, input: input)
        #expect(theirs.status == 0, "llvm-symbolizer failed: \(theirs.standardError)")

        let ourChains = try ours.outputLines.map(ChainParser.postmortem)
        let theirChains = try theirs.outputLines.map(ChainParser.llvmSymbolizer)
        try #require(
            ourChains.count == addresses.count && theirChains.count == addresses.count,
            "expected \(addresses.count) answers, postmortem gave \(ourChains.count), llvm-symbolizer \(theirChains.count)"
        )

        // No allowance: every address comes from the line table, where both tools read the same DWARF.
        var agreed = 0
        var disagreements: [String] = []
        for (index, address) in addresses.enumerated() {
            let (mine, reference) = (ourChains[index], theirChains[index])
            if mine == reference {
                agreed += 1
            } else if disagreements.count < 10 {
                disagreements.append(
                    "0x\(String(address, radix: 16)):\n    postmortem:      \(mine)\n    llvm-symbolizer: \(reference)")
            }
        }
        print("\(fixture.name): \(agreed)/\(addresses.count) addresses agree")
        #expect(agreed == addresses.count, "\(fixture.name): disagreements:\n\(disagreements.joined(separator: "\n"))")
    }
}

/// Postmortem against llvm-symbolizer where the symbol table names the frame: at the start and in the middle of every
/// function symbol of a binary, where aliases share an address (`raise`/`gsignal`, C++ `C1`/`C2` constructors) and
/// the outermost frame takes its name from the symbol table. This machine's C library (stripped, its DWARF from
/// libc6-dbg by build-id) and the C++ fixtures. Every address must agree: there is no allowance for aliases.
@Suite("Differential: symbol-table names vs llvm-symbolizer")
struct SymbolTableDifferentialTests {
    static let binaries = [
        "/lib/x86_64-linux-gnu/libc.so.6", Paths.fixture("inventory-gcc"), Paths.fixture("inventory-clang"),
        Paths.fixture("libgeometry.so")
    ]

    /// Function symbols' starts and midpoints, from `readelf` (the dynamic table of a stripped file), and the names of
    /// hidden symbols the linker made local.
    static func addresses(of binary: String) throws -> (addresses: [UInt64], hiddenLocals: Set<String>) {
        let listing = try Fixtures.run("readelf", ["-sW", "--dyn-syms", binary])
        var addresses = Set<UInt64>()
        var hiddenLocals = Set<String>()
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[3] == "FUNC" || fields[3] == "NOTYPE", fields[6] != "UND",
                let start = UInt64(fields[1], radix: 16), start > 0,
                let size = UInt64(fields[2]) ?? UInt64(fields[2].dropFirst(2), radix: 16)
            else { continue }
            if fields[4] == "LOCAL", fields[5] == "HIDDEN" { hiddenLocals.insert(String(fields[7])) }
            guard fields[3] == "FUNC" else { continue }
            addresses.insert(start)
            if size > 1 { addresses.insert(start + size / 2) }
        }
        return (addresses.sorted(), hiddenLocals)
    }

    /// The one understood difference: llvm-symbolizer gives a hidden symbol the linker made local (`_init`, which
    /// comes from crti.o) the file of the `STT_FILE` entry listed before it (`crtstuff.c`), which is not its file;
    /// postmortem gives it none.
    static func isHiddenLocalFileName(_ ours: [ComparableFrame], _ theirs: [ComparableFrame], hiddenLocals: Set<String>)
        -> Bool
    {
        guard ours.count == 1, theirs.count == 1, let function = ours[0].function, hiddenLocals.contains(function)
        else { return false }
        return ours[0].file == nil && theirs[0].file != nil && ours[0].function == theirs[0].function
            && theirs[0].line == 0
    }

    @Test(arguments: binaries)
    func agreesWithLLVMSymbolizer(_ binary: String) throws {
        try #require(FileManager.default.fileExists(atPath: binary), "\(binary) is missing")
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is not installed (make test installs it)")
        let (addresses, hiddenLocals) = try Self.addresses(of: binary)
        #expect(addresses.count >= 8)
        let input = addresses.map { "0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        let ours = try Command.postmortem(
            ["resolve", "--json", "-i", "--no-demangle", "--no-cache", "-o", binary], input: input)
        #expect(ours.status == 0, "postmortem failed: \(ours.standardError)")
        let theirs = try Command.run(
            symbolizer, ["--obj=\(binary)", "--inlining", "--no-demangle", "--output-style=JSON"], input: input)
        let ourChains = try ours.outputLines.map(ChainParser.postmortem)
        let theirChains = try theirs.outputLines.map(ChainParser.llvmSymbolizer)
        try #require(ourChains.count == addresses.count && theirChains.count == addresses.count)
        var disagreements: [String] = []
        var explained = 0
        for (index, address) in addresses.enumerated() where ourChains[index] != theirChains[index] {
            if Self.isHiddenLocalFileName(ourChains[index], theirChains[index], hiddenLocals: hiddenLocals) {
                explained += 1
                continue
            }
            disagreements.append(
                "0x\(String(address, radix: 16)):\n    postmortem:      \(ourChains[index])\n    llvm-symbolizer: \(theirChains[index])"
            )
        }
        print(
            "\(binary): \(addresses.count - disagreements.count - explained)/\(addresses.count) symbol-table addresses agree,"
                + " \(explained) hidden symbols made local named without llvm-symbolizer's file")
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) disagreements, the first:\n\(disagreements.prefix(10).joined(separator: "\n"))")
    }
}
