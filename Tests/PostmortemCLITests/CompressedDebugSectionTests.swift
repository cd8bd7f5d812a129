import Foundation
import TestSupport
import Testing

/// Compressed debug sections, both kinds: `SHF_COMPRESSED` `.debug_*` (`-gz=zlib`) and the older `.zdebug_*` names
/// (`-gz=zlib-gnu`, from the DWARF 4 years), in a program built now; every answer over its code must be the oracle's:
/// llvm-symbolizer for the first, binutils' addr2line for the second (LLVM no longer reads `.zdebug_*`, and binutils
/// reads them only with DWARF 4).
@Suite("Compressed debug sections")
struct CompressedDebugSectionTests {
    @Test(arguments: [("zlib", ".debug_info", "-gdwarf-5"), ("zlib-gnu", ".zdebug_info", "-gdwarf-4")])
    func answersEqualTheOracles(_ compression: String, _ infoSection: String, _ dwarf: String) throws {
        let folder = Fixtures.scratchDirectory("gz-" + compression)
        let source = Paths.packageRoot.appendingPathComponent("SampleCrashes/linux-c-sensors/sensors.c").path
        let binary = folder + "/sensors"
        let compile = try Command.run(
            "/usr/bin/env",
            [
                "gcc", "-g", dwarf, "-O2", "-gz=" + compression,
                "-fdebug-prefix-map=\(Paths.packageRoot.path)=.", "-o", binary, source
            ])
        try #require(compile.status == 0, "\(compile.standardError)")
        let sections = try Fixtures.run("readelf", ["-SW", binary])
        let info = try #require(
            sections.split(separator: "\n").first { $0.contains(" \(infoSection) ") }, "\(infoSection) in \(sections)")
        if compression == "zlib" { #expect(info.contains(" C "), "SHF_COMPRESSED: \(info)") }

        // Every fourth byte of .text.
        let text = try #require(sections.split(separator: "\n").first { $0.contains(" .text ") })
        let fields = text.split(separator: " ").filter { !$0.isEmpty }
        let nameIndex = try #require(fields.firstIndex(of: ".text"))
        let start = try #require(UInt64(fields[nameIndex + 2], radix: 16))
        let size = try #require(UInt64(fields[nameIndex + 4], radix: 16))
        var addresses = stride(from: start, to: start + size, by: 4).map { "0x" + String($0, radix: 16) }
        if compression != "zlib" {
            // addr2line gives the padding after a function to the function before it (binutils ignores symbol sizes);
            // llvm-symbolizer and postmortem give it to none. Only addresses inside a function are asked of it.
            let functions = try Self.functionRanges(binary)
            addresses = addresses.filter { text in
                let value = UInt64(text.dropFirst(2), radix: 16)!
                return functions.contains { $0.contains(value) }
            }
        }
        #expect(addresses.count > 50)

        let ours = try Command.postmortem(["resolve", "--no-cache", "--json", "-i", "-o", binary] + addresses)
        let ourLines = ours.outputLines
        try #require(ourLines.count == addresses.count)
        let expectedChains =
            compression == "zlib" ? try Self.llvmSymbolizer(binary, addresses) : try Self.addr2line(binary, addresses)
        try #require(expectedChains.count == addresses.count)
        var agreeing = 0
        for (index, address) in addresses.enumerated() {
            var mine = try ChainParser.postmortem(ourLines[index])
            if compression != "zlib" {
                // addr2line gives no columns, and names a function the DWARF does not cover by the symbol table's name
                // (which ours gives as `symbol`, beside the chain).
                mine = mine.map { ComparableFrame(function: $0.function, file: $0.file, line: $0.line, column: 0) }
                let symbol =
                    (try JSONSerialization.jsonObject(with: Data(ourLines[index].utf8)) as? [String: Any])?["symbol"]
                    as? String
                if mine.isEmpty, let symbol {
                    mine = [ComparableFrame(function: symbol, file: nil, line: 0, column: 0)]
                }
                if let last = mine.indices.last, mine[last].function == nil { mine[last].function = symbol }
            }
            #expect(mine == expectedChains[index], "\(address)")
            if mine == expectedChains[index], mine.contains(where: { $0.line > 0 }) { agreeing += 1 }
        }
        #expect(agreeing > addresses.count / 2, "most addresses have a source line")
    }

    /// The ranges of the binary's function symbols, from `nm -S`.
    static func functionRanges(_ binary: String) throws -> [Range<UInt64>] {
        try Fixtures.run("nm", ["-S", "--defined-only", binary]).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 4, fields[2] == "T" || fields[2] == "t",
                let start = UInt64(fields[0], radix: 16), let size = UInt64(fields[1], radix: 16)
            else { return nil }
            return start..<(start + size)
        }
    }

    /// llvm-symbolizer's chains, innermost first: it answers a list of addresses with one JSON array.
    static func llvmSymbolizer(_ binary: String, _ addresses: [String]) throws -> [[ComparableFrame]] {
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let output = try Command.run(symbolizer, ["--inlining", "--output-style=JSON", "--obj=" + binary] + addresses)
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [Any])
        return try answers.map {
            try ChainParser.llvmSymbolizer(
                String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self))
        }
    }

    /// addr2line's chains (`-a -f -i`: each address, then a function line and a `file:line` line per frame, innermost
    /// first), its `??` and `?` read as absent.
    static func addr2line(_ binary: String, _ addresses: [String]) throws -> [[ComparableFrame]] {
        let output = try Command.run("/usr/bin/env", ["addr2line", "-a", "-f", "-i", "-e", binary] + addresses)
        var chains: [[ComparableFrame]] = []
        var lines = output.outputLines[...]
        while let marker = lines.popFirst() {
            guard marker.hasPrefix("0x") else { continue }
            var chain: [ComparableFrame] = []
            while let function = lines.first, !function.hasPrefix("0x") {
                lines.removeFirst()
                let place = lines.popFirst() ?? "??:0"
                let colon = place.lastIndex(of: ":") ?? place.endIndex
                let file = String(place[..<colon])
                let line =
                    Int(
                        place[place.index(after: min(colon, place.index(before: place.endIndex)))...].prefix {
                            $0.isNumber
                        }) ?? 0
                chain.append(
                    ComparableFrame(
                        function: function == "??" ? nil : function, file: file == "??" ? nil : file, line: line,
                        column: 0))
            }
            if chain.count == 1, chain[0].function == nil, chain[0].file == nil { chain = [] }
            chains.append(chain)
        }
        return chains
    }
}
