import Foundation
import TestSupport
import Testing

/// The modes of `resolve` other than `-i` with file addresses, against llvm-symbolizer asked the same question:
/// without `-i` (the outermost function at the innermost position: `--no-inlines`), and runtime addresses given with
/// a load address (`-l`) or a slide (`-s`), which llvm-symbolizer takes as `--adjust-vma`. Addresses are sampled from
/// each fixture's line table; every one must agree.
@Suite("Differential: resolve's modes vs llvm-symbolizer")
struct DifferentialModesTests {
    static let fixtures = ["sensors-gcc-dwarf5", "inventory-clang", "shapes-swift-O", "libgeometry.so"]
    static let sampleCount = 300

    static func compare(_ fixture: String, ours: [String], theirs: [String], input addresses: [UInt64]) throws {
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let text = addresses.map { "0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        let mine = try Command.postmortem(
            ["resolve", "--json", "--no-cache", "--no-demangle", "-o", Paths.fixture(fixture)] + ours, input: text)
        let reference = try Command.run(
            symbolizer, ["--obj=" + Paths.fixture(fixture), "--no-demangle", "--output-style=JSON"] + theirs,
            input: text)
        let ourChains = try mine.outputLines.map(ChainParser.postmortem)
        let theirChains = try reference.outputLines.map(ChainParser.llvmSymbolizer)
        try #require(ourChains.count == addresses.count && theirChains.count == addresses.count)
        var disagreements: [String] = []
        for index in addresses.indices where ourChains[index] != theirChains[index] {
            disagreements.append(
                "0x\(String(addresses[index], radix: 16)): \(ourChains[index]) vs \(theirChains[index])")
        }
        #expect(
            disagreements.isEmpty,
            "\(fixture) \(ours): \(disagreements.count) of \(addresses.count):\n\(disagreements.prefix(5).joined(separator: "\n"))"
        )
    }

    /// Text without `-i` (JSON always carries the whole chain): atos's `function (in image) (file:line)` with
    /// `--full-path`, against llvm-symbolizer's `function` / `file:line:column` pairs, compared without the column
    /// (which atos's form does not print).
    @Test(
        "Without -i: the outermost function at the innermost source position, as llvm-symbolizer --no-inlines",
        arguments: fixtures)
    func withoutInlines(_ fixture: String) throws {
        let addresses = try LineTableSampler.sample(Self.sampleCount, from: Paths.fixture(fixture), seed: 0x5EED_0002)
        let text = addresses.map { "0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let mine = try Command.postmortem(
            ["resolve", "--no-cache", "--no-demangle", "--full-path", "-o", Paths.fixture(fixture)], input: text)
        let reference = try Command.run(
            symbolizer, ["--obj=" + Paths.fixture(fixture), "--no-demangle", "--no-inlines"], input: text)
        let image = (fixture as NSString).lastPathComponent
        let ours = mine.outputLines.map { line -> String in
            if let range = line.range(of: " (in \(image)) (") {
                let place = line[range.upperBound...].dropLast()
                // atos names a place no function covers by its address; llvm-symbolizer by `??`.
                let function = line[..<range.lowerBound]
                return (function.hasPrefix("0x") ? "??" : function) + " " + place
            }
            if let range = line.range(of: " (in \(image)) + ") { return line[..<range.lowerBound] + " ??:0" }
            return "?? ??:0"
        }
        let lines = reference.outputLines.filter { !$0.isEmpty }
        try #require(lines.count == 2 * addresses.count && ours.count == addresses.count)
        let theirs = stride(from: 0, to: lines.count, by: 2).map { index -> String in
            let place = lines[index + 1]
            let withoutColumn =
                place.split(separator: ":").count >= 3 ? String(place[..<place.lastIndex(of: ":")!]) : place
            return lines[index] + " " + withoutColumn
        }
        let disagreements = addresses.indices.filter { ours[$0] != theirs[$0] }
            .map { "0x\(String(addresses[$0], radix: 16)): \(ours[$0]) vs \(theirs[$0])" }
        #expect(
            disagreements.isEmpty,
            "\(fixture): \(disagreements.count) of \(addresses.count):\n\(disagreements.prefix(5).joined(separator: "\n"))"
        )
    }

    @Test(
        "Runtime addresses with -l (load address) and -s (slide), as llvm-symbolizer --adjust-vma", arguments: fixtures)
    func runtimeAddresses(_ fixture: String) throws {
        let fileAddresses = try LineTableSampler.sample(
            Self.sampleCount, from: Paths.fixture(fixture), seed: 0x5EED_0003)
        // A position-independent image loaded at a page-aligned address; its first segment's address is 0.
        let load: UInt64 = 0x7f3a_1c40_0000
        let runtime = fileAddresses.map { $0 + load }
        let vma = "--adjust-vma=0x" + String(load, radix: 16)
        try Self.compare(
            fixture, ours: ["-i", "-l", "0x" + String(load, radix: 16)], theirs: ["--inlining", vma], input: runtime)
        try Self.compare(
            fixture, ours: ["-i", "-s", "0x" + String(load, radix: 16)], theirs: ["--inlining", vma], input: runtime)
    }

    /// Code with a symbol table and no DWARF (`strip --strip-debug` of the fixture, made by the test): the start and
    /// the middle of every function symbol, named from the symbol table by both tools.
    @Test("Symbols without DWARF, as llvm-symbolizer names them from the symbol table", arguments: fixtures)
    func symbolsWithoutDWARF(_ fixture: String) throws {
        let folder = Fixtures.scratchDirectory("symbols-only")
        let stripped = folder + "/" + (fixture as NSString).lastPathComponent
        let strip = try Command.run("/usr/bin/env", ["strip", "--strip-debug", "-o", stripped, Paths.fixture(fixture)])
        try #require(strip.status == 0, "\(strip.standardError)")
        var addresses: [UInt64] = []
        for line in try Fixtures.run("nm", ["-S", "--defined-only", stripped]).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, fields[2] == "T" || fields[2] == "t",
                let start = UInt64(fields[0], radix: 16), let size = UInt64(fields[1], radix: 16), size > 0
            else { continue }
            addresses += [start, start + size / 2]
        }
        try #require(addresses.count >= 4)
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let text = addresses.map { "0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        let mine = try Command.postmortem(
            ["resolve", "--json", "-i", "--no-cache", "--no-demangle", "-o", stripped], input: text)
        let reference = try Command.run(
            symbolizer, ["--obj=" + stripped, "--inlining", "--no-demangle", "--output-style=JSON"], input: text)
        let ours = try mine.outputLines.map(ChainParser.postmortem)
        let theirs = try reference.outputLines.map(ChainParser.llvmSymbolizer)
        try #require(ours.count == addresses.count && theirs.count == addresses.count)
        let disagreements = addresses.indices.filter { ours[$0] != theirs[$0] }
            .map { "0x\(String(addresses[$0], radix: 16)): \(ours[$0]) vs \(theirs[$0])" }
        #expect(
            disagreements.isEmpty,
            "\(fixture): \(disagreements.count) of \(addresses.count):\n\(disagreements.prefix(5).joined(separator: "\n"))"
        )
        #expect(ours.allSatisfy { $0.allSatisfy { $0.file == nil } }, "no DWARF, no files")
    }
}
