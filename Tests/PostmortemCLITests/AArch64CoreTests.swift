import Foundation
import TestSupport
import Testing

/// An AArch64 core: the tests' threaded C crash (its library linked in, statically) cross-built with
/// gcc-aarch64-linux-gnu and run under qemu-user, whose cores hold no list of mapped files and no code: the program is
/// placed by its entry point, and every thread unwinds (x30 as the return address of a leaf frame) as gdb-multiarch
/// unwinds it.
@Suite("AArch64 cores")
struct AArch64CoreTests {
    @Test func everyThreadEqualsGDBMultiarch() throws {
        let gdb = try #require(
            Paths.executable(named: "gdb-multiarch"), "gdb-multiarch is needed; make test installs it")
        let (scratch, core) = try AArch64Crash.threadsCore()

        let result = try Command.run(
            Paths.postmortem, ["symbolicate", "--json", "--no-cache", core],
            currentDirectory: URL(fileURLWithPath: scratch))
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let ours = Dictionary(
            uniqueKeysWithValues: CoreFileTests.threads(report).compactMap { thread -> (Int, [UInt64])? in
                guard let id = thread["index"] as? Int else { return nil }
                let addresses = (thread["frames"] as? [[String: Any]] ?? []).compactMap {
                    ($0["address"] as? String).flatMap { UInt64($0.dropFirst(2), radix: 16) }
                }
                return (id, addresses)
            })

        let theirs = try Command.run(
            gdb,
            [
                "-batch", "-nx", "-ex", "set debuginfod enabled off", "-ex",
                "set print frame-info location-and-address",
                "-ex", "set backtrace past-main on", "-ex", "thread apply all bt", scratch + "/threads", core
            ])
        var expected: [Int: [UInt64]] = [:]
        var thread: Int?
        for line in theirs.outputLines {
            if line.hasPrefix("Thread "), let match = line.firstMatch(of: /\(LWP (\d+)\)\)/) {
                thread = Int(match.1)
                expected[thread!] = []
            } else if let thread, line.hasPrefix("#"), let start = line.firstRange(of: "  0x")?.upperBound {
                let hex = line[start...].prefix { $0.isHexDigit }
                // gdb gives an inlined function a frame of its own at its caller's address: one frame here.
                if line[hex.endIndex...].hasPrefix(" in "), let address = UInt64(hex, radix: 16),
                    expected[thread]?.last != address
                {
                    expected[thread]?.append(address)
                }
            }
        }
        #expect(expected.count == 3, "gdb-multiarch's threads: \(theirs.standardOutput)")
        #expect(ours == expected)
        // The fault is in the library's function (what it called, inlined), called by compute (a clone gcc may rename),
        // called by main.
        let crashed = CoreFileTests.threads(report).first
        let names = (crashed?["frames"] as? [[String: Any]] ?? []).compactMap {
            (($0["symbols"] as? [[String: Any]])?.last?["function"]) as? String
        }
        #expect(
            names.count >= 3 && names[0] == "sum_chain" && names[1].hasPrefix("compute") && names[2] == "main",
            "\(names)")
    }

    /// A dynamic program: its libraries are found from the dynamic linker's list in the core's memory (the executable's
    /// `DT_DEBUG` → `r_debug` → `link_map`), below `-d` as gdb's sysroot; every thread equals gdb-multiarch's walk of the
    /// same program at its crash under qemu's gdb stub, address for address.
    @Test func aDynamicProgramsLibrariesComeFromTheDynamicLinkersList() throws {
        let (scratch, core) = try AArch64Crash.dynamicThreadsCore()

        let result = try Command.run(
            Paths.postmortem, ["symbolicate", "--json", "--no-cache", "-d", AArch64Crash.sysroot, core],
            currentDirectory: URL(fileURLWithPath: scratch))
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let images = (report["images"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(
            images.contains(scratch + "/libchain.so") && images.contains(AArch64Crash.sysroot + "/lib/libc.so.6")
                && images.contains(AArch64Crash.sysroot + "/lib/ld-linux-aarch64.so.1"), "\(images)")
        let ours = CoreFileTests.threads(report).map { thread in
            (thread["frames"] as? [[String: Any]] ?? []).compactMap {
                ($0["address"] as? String).flatMap { UInt64($0.dropFirst(2), radix: 16) }
            }
        }

        let theirs = try AArch64Crash.gdbAtCrash(of: "threads", in: scratch)
        var expected: [[UInt64]] = []
        for line in theirs.outputLines {
            if line.hasPrefix("Thread "), line.hasSuffix("):") {
                expected.append([])
            } else if !expected.isEmpty, line.hasPrefix("#"), let start = line.firstRange(of: "  0x")?.upperBound {
                let hex = line[start...].prefix { $0.isHexDigit }
                // gdb gives an inlined function a frame of its own at its caller's address: one frame here.
                if line[hex.endIndex...].hasPrefix(" in "), let address = UInt64(hex, radix: 16),
                    expected[expected.count - 1].last != address
                {
                    expected[expected.count - 1].append(address)
                }
            }
        }
        #expect(expected.count == 3, "gdb-multiarch's threads: \(theirs.standardOutput) \(theirs.standardError)")
        let order: ([UInt64], [UInt64]) -> Bool = { $0.lexicographicallyPrecedes($1) }
        #expect(ours.sorted(by: order) == expected.sorted(by: order))
        // The crash is in the library, called by the program, called from libc's start: every image placed.
        let crashed = CoreFileTests.threads(report).first?["frames"] as? [[String: Any]] ?? []
        let names = crashed.compactMap { (($0["symbols"] as? [[String: Any]])?.last?["function"]) as? String }
        #expect(names.first == "sum_chain" && names.contains("main") && names.contains("__libc_start_main"), "\(names)")

        // Without -d the libraries of the foreign machine are not here: one line says which and what to give.
        let bare = try Command.run(
            Paths.postmortem, ["symbolicate", "--no-cache", core], currentDirectory: URL(fileURLWithPath: scratch))
        #expect(bare.status == 0)
        #expect(
            bare.standardError.contains("/lib/libc.so.6, loaded at 0x") && bare.standardError.contains("a sysroot"),
            "\(bare.standardError)")
    }
}
