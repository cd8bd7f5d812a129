import Foundation
import TestSupport
import Testing

/// A frame's `name+offset` counts from the symbol the name is, as the log's own `main+0x7c` does: g++ puts a function's
/// cold part (`main.cold`) below its entry, and the offset counted from the lowest address of the function's ranges
/// (the cold part) named a place past the end of nothing. Symbols and offsets here come from `nm` and `objdump`, not from
/// postmortem.
@Suite("Function offsets")
struct FunctionOffsetTests {
    /// Where the first call of each function of `binary` returns to, as `objdump -d` shows its code.
    static func returnAddresses(in binary: String) throws -> [String: UInt64] {
        var function: String?, afterCall = false
        var found: [String: UInt64] = [:]
        for line in try Command.run("/usr/bin/env", ["objdump", "-d", "--no-show-raw-insn", binary]).outputLines {
            if line.hasSuffix(">:"), let open = line.firstIndex(of: "<") {
                function = String(line[line.index(after: open)..<line.index(line.endIndex, offsetBy: -2)])
                afterCall = false
                continue
            }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let function, fields.count >= 2, fields[0].hasSuffix(":"),
                let address = UInt64(fields[0].dropLast(), radix: 16)
            else { continue }
            if afterCall, found[function] == nil { found[function] = address }
            afterCall = fields[1] == "call"
        }
        return found
    }

    @Test func offsetsCountFromTheSymbolNamed() throws {
        let binary = Paths.fixture("inventory-gcc")
        var symbols: [String: UInt64] = [:]
        for line in try Command.run("/usr/bin/env", ["nm", binary]).outputLines {
            let fields = line.split(separator: " ")
            if fields.count == 3, let address = UInt64(fields[0], radix: 16) { symbols[String(fields[2])] = address }
        }
        let main = try #require(symbols["main"]), cold = try #require(symbols["main.cold"])
        try #require(cold < main, "the fixture's cold part lies below its entry")
        // A glibc trace of a return address inside main and one inside its cold part: each after a call, as a
        // machine stack's are (a glibc trace's offsets are checked against the binary's calls).
        let returns = try Self.returnAddresses(in: binary)
        let addresses = [try #require(returns["main"]), try #require(returns["main.cold"])]
        try #require(addresses[0] > main && addresses[1] > cold && addresses[1] < main, "\(returns)")
        let scratch = try BadInputTests.Scratch()
        let log = addresses.map {
            "./inventory-gcc(+0x\(String($0, radix: 16)))[0x\(String(0x5555_5555_4000 + $0, radix: 16))]"
        }
        try (log.joined(separator: "\n") + "\n").write(
            toFile: scratch.path("trace.txt"), atomically: true, encoding: .utf8)
        let printed = try Command.postmortem([
            "symbolicate", "--no-cache", "-d", Paths.fixtures.path, scratch.path("trace.txt")
        ])
        .outputLines.filter { !$0.hasSuffix("(inlined)") }
        #expect(printed.count == 2, "\(printed)")
        #expect(
            printed.first?.hasPrefix("./inventory-gcc(main+0x\(String(addresses[0] - main, radix: 16))) ") == true,
            "\(printed)")
        #expect(
            printed.last?.hasPrefix("./inventory-gcc(main.cold+0x\(String(addresses[1] - cold, radix: 16))) ") == true,
            "\(printed)")
    }
}
