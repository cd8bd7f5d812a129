import Foundation
import TestSupport
import Testing

/// A minidump whose modules' binaries are gone, walked by the `STACK CFI` records of their symbol files in a store
/// (`symbolicate --symbols STORE`), as a crash-reporting backend walks the dumps its clients upload: every thread the
/// same frames as the walk with the binaries, and as minidump-stackwalk 0.25 walks it with the same store.
@Suite("Minidumps walked by a symbol store")
struct SymbolStoreWalkTests {
    /// Crashes in code built without frame pointers (gcc -O2), each with the binaries of its own the dump names (copied
    /// out of the built programs' folder, so that they can be removed).
    static let crashes: [(crash: CrashingPrograms.Crash, binaries: [String])] = [
        (CrashingPrograms.Crash(program: "threads"), ["threads", "libchain.so"]),
        (CrashingPrograms.Crash(program: "terminate"), ["terminate"])
    ]

    @Test(arguments: crashes.indices)
    func aDumpWithoutItsBinariesWalksByTheStoresCFI(_ position: Int) throws {
        let (crash, binaries) = Self.crashes[position]
        let built = try CrashingPrograms.directory.get()
        let scratch = Fixtures.scratchDirectory("store-walk-\(crash.program)")
        for file in binaries + ["with-default-signals"] {
            try FileManager.default.copyItem(atPath: built + "/" + file, toPath: scratch + "/" + file)
        }
        let core = try #require(
            try CrashingPrograms.kernelCore(of: crash, in: scratch) ?? CrashingPrograms.gdbCore(of: crash, in: scratch))
        let dump = try Core2MDTests.convert(core)
        let store = scratch + "/store"
        // The system's libraries the program loads go in too: minidump-stackwalk walks through them only by a store.
        let loaded = try Command.run("/usr/bin/ldd", [scratch + "/" + crash.program]).outputLines.compactMap {
            line -> String? in
            guard let arrow = line.range(of: "=> /") else { return nil }
            let path = String(line[line.index(before: arrow.upperBound)...].prefix { $0 != " " })
            return path.hasPrefix(scratch) ? nil : path
        }
        let written = try Command.postmortem(
            ["dump-syms", "--store", store] + binaries.map { scratch + "/" + $0 } + loaded)
        try #require(written.status == 0, "\(written.standardError)")

        let withBinaries = try Core2MDTests.json(["symbolicate", "--json", "--no-cache", "--offline", dump])
        for file in binaries { try FileManager.default.removeItem(atPath: scratch + "/" + file) }
        let withoutStore = try Core2MDTests.json(["symbolicate", "--json", "--no-cache", "--offline", dump])
        let withStore = try Core2MDTests.json([
            "symbolicate", "--json", "--no-cache", "--offline", "--symbols", store, dump
        ])

        let expected = Core2MDTests.addresses(withBinaries)
        #expect(Core2MDTests.addresses(withStore) == expected, "\(crash): the store's CFI walks as the binaries' does")
        // The test is not of a dump any walk gets through: without the store, some thread's walk stops short.
        #expect(Core2MDTests.addresses(withoutStore) != expected, "\(crash): the binaries were not needed")
        #expect(expected.values.contains { $0.count >= 3 })

        let theirs = try CrashpadDumps.stackwalk(dump, symbols: store)
        #expect(MinidumpTests.compareFrames(ours: withStore, theirs: theirs, label: "\(crash) by the store") >= 2)
    }
}
