import Foundation
import TestSupport
import Testing

/// The Mach-O `info symbol` golden held to LLVM's tools: gdb reads no arm64 Mach-O, so what it would say is worked
/// out from `llvm-nm`'s symbols and `llvm-objdump`'s section list, by gdb's rule: the nearest symbol at or below the
/// address in the address's own section, `+ offset` when not at its start; none outside every section.
@Suite("Golden CLI output: Mach-O info symbol, held to llvm-nm and llvm-objdump")
struct MachOInfoSymbolOracleTests {
    struct Section {
        var name: String
        var range: Range<UInt64>
    }

    @Test func goldenLinesFollowLLVMsSymbolsAndSections() throws {
        let binary = Paths.packageRoot.appendingPathComponent("Tests/Fixtures/Apple/bin/App-arm64").path
        let nm = try #require(Paths.executable(named: "llvm-nm"), "llvm-nm is needed (make test installs llvm)")
        let objdump = try #require(
            Paths.executable(named: "llvm-objdump"), "llvm-objdump is needed (make test installs llvm)")
        var sections: [Section] = []
        var fields: [String: String] = [:]
        for line in try Command.run(objdump, ["--macho", "--private-headers", binary]).outputLines {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2 else { continue }
            fields[String(parts[0])] = String(parts[1])
            if parts[0] == "size", let sectname = fields["sectname"], let segname = fields["segname"],
                let start = fields["addr"].flatMap({ UInt64($0.dropFirst(2), radix: 16) }),
                let size = UInt64(parts[1].dropFirst(2), radix: 16)
            {
                sections.append(Section(name: segname + "," + sectname, range: start..<start + size))
                fields = [:]
            }
        }
        #expect(sections.contains { $0.name == "__TEXT,__text" })
        // Mach-O C symbols carry a leading underscore, which gdb and atos leave out; Objective-C methods have none.
        let symbols: [(address: UInt64, name: String)] = try Command.run(nm, ["-n", "--defined-only", binary])
            .outputLines.compactMap { line in
                let parts = line.split(separator: " ", maxSplits: 2)
                guard parts.count == 3, let address = UInt64(parts[0], radix: 16) else { return nil }
                let name = String(parts[2])
                return (address, name.hasPrefix("_") ? String(name.dropFirst()) : name)
            }
        let addresses: [UInt64] = [0x1_0000_08a8, 0x1_0000_0918, 0x1_0000_8018, 0x10]
        let expected = addresses.map { address -> String in
            let hex = "0x" + String(address, radix: 16)
            guard let section = sections.first(where: { $0.range.contains(address) }),
                let symbol = symbols.last(where: { $0.address <= address && section.range.contains($0.address) })
            else { return "No symbol matches \(hex)." }
            let offset = address - symbol.address
            return "\(symbol.name)\(offset == 0 ? "" : " + \(offset)") in section \(section.name)"
        }
        let transcript = try String(
            contentsOf: Paths.golden.appendingPathComponent("info-symbol-macho.txt"), encoding: .utf8)
        #expect(
            transcript.contains(
                "info symbol -o Tests/Fixtures/Apple/bin/App-arm64 "
                    + addresses.map { "0x" + String($0, radix: 16) }.joined(separator: " ")))
        let pinned = try Golden.standardOutput(of: "info-symbol-macho")
        #expect(pinned == expected)
    }
}
