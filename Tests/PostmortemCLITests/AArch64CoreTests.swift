import Foundation
import Testing
import TestSupport

/// An AArch64 core: the tests' threaded C crash (its library linked in, statically) cross-built with
/// gcc-aarch64-linux-gnu and run under qemu-user, whose cores hold no list of mapped files and no code: the program is
/// placed by its entry point, and every thread unwinds (x30 as the return address of a leaf frame) as gdb-multiarch
/// unwinds it.
@Suite("AArch64 cores")
struct AArch64CoreTests {
    @Test func everyThreadEqualsGDBMultiarch() throws {
        let gdb = try #require(Paths.executable(named: "gdb-multiarch"), "gdb-multiarch is needed; make test installs it")
        let (scratch, core) = try AArch64Crash.threadsCore()

        let result = try Command.run(Paths.postmortem, ["symbolicate", "--json", "--no-cache", core], currentDirectory: URL(fileURLWithPath: scratch))
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let ours = Dictionary(uniqueKeysWithValues: CoreFileTests.threads(report).compactMap { thread -> (Int, [UInt64])? in
            guard let id = thread["index"] as? Int else { return nil }
            let addresses = (thread["frames"] as? [[String: Any]] ?? []).compactMap { ($0["address"] as? String).flatMap { UInt64($0.dropFirst(2), radix: 16) } }
            return (id, addresses)
        })

        let theirs = try Command.run(gdb, ["-batch", "-nx", "-ex", "set debuginfod enabled off", "-ex", "set print frame-info location-and-address",
                                           "-ex", "set backtrace past-main on", "-ex", "thread apply all bt", scratch + "/threads", core])
        var expected: [Int: [UInt64]] = [:]
        var thread: Int?
        for line in theirs.outputLines {
            if line.hasPrefix("Thread "), let match = line.firstMatch(of: /\(LWP (\d+)\)\)/) {
                thread = Int(match.1)
                expected[thread!] = []
            } else if let thread, line.hasPrefix("#"), let start = line.firstRange(of: "  0x")?.upperBound {
                let hex = line[start...].prefix { $0.isHexDigit }
                // gdb gives an inlined function a frame of its own at its caller's address: one frame here.
                if line[hex.endIndex...].hasPrefix(" in "), let address = UInt64(hex, radix: 16), expected[thread]?.last != address {
                    expected[thread]?.append(address)
                }
            }
        }
        #expect(expected.count == 3, "gdb-multiarch's threads: \(theirs.standardOutput)")
        #expect(ours == expected)
        // The fault is in the library's function (what it called, inlined), called by compute (a clone gcc may rename),
        // called by main.
        let crashed = CoreFileTests.threads(report).first
        let names = (crashed?["frames"] as? [[String: Any]] ?? []).compactMap { (($0["symbols"] as? [[String: Any]])?.last?["function"]) as? String }
        #expect(names.count >= 3 && names[0] == "sum_chain" && names[1].hasPrefix("compute") && names[2] == "main", "\(names)")
    }
}
