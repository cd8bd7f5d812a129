import Foundation
import PostmortemCore
import TestSupport
import Testing

/// The index cache looking after itself: written in the background after a first run's answers, one writer at a
/// time, within its size limit (least recently used first out), without leftovers when a writer is interrupted, and
/// at most one warning line when it cannot be used.
@Suite("Index cache: background writing, limit, interruption, unusable directories")
struct IndexCacheHygieneTests {
    static let fixture = Paths.fixture("inventory-gcc")

    /// The index files and temporary files in `directory`.
    static func files(in directory: String) -> (indexes: [String], temporary: [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return (
            names.filter { $0.hasSuffix(".pmindex") }.sorted(), names.filter { $0.contains(".pmindex.tmp-") }.sorted()
        )
    }

    /// Waits (at most `seconds`) until `condition` holds.
    static func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Waits until a file modified now would be newer than every index in `cache` (file times have the kernel
    /// clock's granularity): the order of uses the eviction reads, made without sleeping a fixed time.
    static func waitForNewerTimes(than cache: String) {
        let newest = files(in: cache).indexes.compactMap { FileSystem.status(cache + "/" + $0)?.modified }.max() ?? 0
        let marker = cache + "/../clock-marker"
        _ = eventually(10) {
            FileManager.default.createFile(atPath: marker, contents: nil)
            return (FileSystem.status(marker)?.modified ?? 0) > newest
        }
    }

    /// Every process whose environment names `cache` as its index cache: the runs of a test and the writers they
    /// started.
    static func processes(using cache: String) -> [Int32] {
        let needle = Array("POSTMORTEM_CACHE_DIR=\(cache)\u{0}".utf8)
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter {
            pid in
            guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return [UInt8](environment).firstRange(of: needle) != nil
        }
    }

    /// A first run answers and ends; a detached writer then writes the index, which the next run maps.
    @Test func aFirstRunLeavesTheIndexToABackgroundWriter() throws {
        let scratch = try BadInputTests.Scratch()
        let cache = scratch.path("cache")
        let first = try Command.postmortem(
            ["resolve", "-o", Self.fixture, "0x14e3"], cacheDirectory: cache, backgroundCacheWrites: true)
        #expect(first.status == 0 && first.standardError.isEmpty, "\(first.standardError)")
        #expect(
            Self.eventually(60) { Self.files(in: cache).indexes.count == 1 && Self.files(in: cache).temporary.isEmpty })
        let info = try Command.postmortem(["cache", "info"], cacheDirectory: cache)
        #expect(info.outputLines.first?.contains("1 index file") == true, "\(info.standardOutput)")
        #expect(info.standardOutput.contains(Self.fixture.split(separator: "/").last.map(String.init) ?? ""))
        let second = try Command.postmortem(
            ["resolve", "-o", Self.fixture, "0x14e3"], cacheDirectory: cache, backgroundCacheWrites: true)
        #expect(second.standardOutput == first.standardOutput)
    }

    /// While a writer is at work (its lock held, here by the test), runs start no other: nothing piles up; the run
    /// after it writes.
    @Test func oneWriterAtATime() throws {
        let scratch = try BadInputTests.Scratch()
        let cache = scratch.path("cache")
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let lockPath = cache + "/.writer.lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        for _ in 0..<3 {
            let run = try Command.postmortem(
                ["resolve", "-o", Self.fixture, "0x14e3"], cacheDirectory: cache, backgroundCacheWrites: true)
            #expect(run.status == 0)
        }
        // Every writer these runs may have started has ended (a writer that finds the lock held leaves at once): and
        // none wrote.
        #expect(
            Self.eventually(60) { Self.processes(using: cache).isEmpty },
            "writers still at work: \(Self.processes(using: cache))")
        #expect(Self.files(in: cache).indexes.isEmpty, "no writer ran while the lock was held")
        flock(descriptor, LOCK_UN)
        close(descriptor)
        _ = try Command.postmortem(
            ["resolve", "-o", Self.fixture, "0x14e3"], cacheDirectory: cache, backgroundCacheWrites: true)
        #expect(Self.eventually(60) { Self.files(in: cache).indexes.count == 1 })
    }

    /// With a limit that holds two of three indexes, writing the third evicts the least recently used: the one not
    /// used since it was written, not the one a run used again.
    @Test func theLeastRecentlyUsedIndexIsEvicted() throws {
        let scratch = try BadInputTests.Scratch()
        let cache = scratch.path("cache")
        let binaries = ["inventory-gcc", "inventory-clang", "sensors-gcc-dwarf5"].map(Paths.fixture)
        func run(_ binary: String, limit: String) throws -> CommandResult {
            try Command.run(
                Paths.postmortem, ["resolve", "-o", binary, "0x1200"],
                environment: Command.foregroundCacheWrites.merging([
                    "POSTMORTEM_CACHE_DIR": cache, "POSTMORTEM_CACHE_LIMIT": limit
                ]) { $1 })
        }
        _ = try run(binaries[0], limit: "1G")
        Self.waitForNewerTimes(than: cache)
        _ = try run(binaries[1], limit: "1G")
        let sizes = Self.files(in: cache).indexes.map {
            (try? FileManager.default.attributesOfItem(atPath: cache + "/" + $0)[.size] as? Int) ?? 0
        }
        #expect(sizes.count == 2)
        Self.waitForNewerTimes(than: cache)
        // The first binary used again: now the second is the least recently used.
        _ = try run(binaries[0], limit: "1G")
        Self.waitForNewerTimes(than: cache)
        // The third index is smaller than either: the limit holds the two there are, not all three.
        let third = try run(binaries[2], limit: String(sizes.reduce(0, +)))
        #expect(third.status == 0, "\(third.standardError)")
        let info = try Command.postmortem(["cache", "info"], cacheDirectory: cache).standardOutput
        #expect(
            info.contains("/inventory-gcc") && info.contains("/sensors-gcc-dwarf5")
                && !info.contains("/inventory-clang"), "\(info)")
    }

    /// Ctrl-C while a first run writes its index: the run ends at once with the signal's status, and leaves no
    /// temporary file and no index. A temporary file left by a writer killed outright is shown by `cache info` and
    /// removed by the next writer.
    @Test func anInterruptedWriterLeavesNothingBehind() throws {
        let scratch = try BadInputTests.Scratch()
        let cache = scratch.path("cache")
        // A program with 12,000 functions: its index takes long enough to write to be interrupted while at it.
        let gcc = try #require(Paths.executable(named: "gcc"), "gcc is needed (make test installs it)")
        var source = (0..<12_000).map {
            "int f\($0)(int x) { int y = x * \($0); if (y > \($0)) y -= x; return y + \($0); }"
        }
        source.append("int main(int c, char **v) { return f1(c) + f11999(c); }")
        try (source.joined(separator: "\n") + "\n").write(
            toFile: scratch.path("large.c"), atomically: true, encoding: .utf8)
        let build = try Command.run(
            gcc,
            [
                "-g", "-O0", "-fdebug-prefix-map=\(scratch.url.path)=.", scratch.path("large.c"), "-o",
                scratch.path("large")
            ])
        try #require(build.status == 0, "\(build.standardError)")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.postmortem)
        process.arguments = ["resolve", "-o", scratch.path("large"), "0x1200"]
        process.environment = ProcessInfo.processInfo.environment.merging(
            Command.foregroundCacheWrites.merging(["POSTMORTEM_CACHE_DIR": cache]) { $1 }
        ) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let caught = Self.eventually(60) { !Self.files(in: cache).temporary.isEmpty || !process.isRunning }
        try #require(
            caught && process.isRunning && !Self.files(in: cache).temporary.isEmpty, "the run was seen writing")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGINT)
        #expect(
            Self.files(in: cache).temporary.isEmpty && Self.files(in: cache).indexes.isEmpty, "\(Self.files(in: cache))"
        )

        // What a writer killed outright leaves: a temporary file of a process that is gone.
        let leftover = cache + "/buildid-0-0.pmindex.tmp-999999-1"
        try Data(repeating: 7, count: 4_096).write(to: URL(fileURLWithPath: leftover))
        let info = try Command.postmortem(["cache", "info"], cacheDirectory: cache)
        #expect(info.standardOutput.contains("left by an interrupted writer"), "\(info.standardOutput)")
        let run = try Command.postmortem(["cache", "build", Self.fixture], cacheDirectory: cache)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(Self.files(in: cache).temporary.isEmpty && Self.files(in: cache).indexes.count == 1)
    }

    /// The limit is `2G` unless `POSTMORTEM_CACHE_LIMIT` says otherwise (docs/USING.md), as `cache info` shows it.
    @Test func theLimitIsTwoGigabytesUnlessSet() throws {
        try #require(
            ProcessInfo.processInfo.environment["POSTMORTEM_CACHE_LIMIT"] == nil,
            "the test runs without POSTMORTEM_CACHE_LIMIT set")
        let cache = Fixtures.scratchDirectory("cache-limit")
        let standard = try Command.postmortem(["cache", "info"], cacheDirectory: cache)
        #expect(standard.outputLines.first?.hasSuffix(" of 2.0 GiB") == true, "\(standard.standardOutput)")
        let set = try Command.run(
            Paths.postmortem, ["cache", "info"],
            environment: ["POSTMORTEM_CACHE_DIR": cache, "POSTMORTEM_CACHE_LIMIT": "300M"])
        #expect(set.outputLines.first?.hasSuffix(" of 300.0 MiB") == true, "\(set.standardOutput)")
    }

    /// `cache prune` removes the index of a binary that no longer exists and keeps the others, and removes what an
    /// interrupted writer left, not what a writer at work is writing.
    @Test func pruneDropsIndexesOfBinariesThatAreGone() throws {
        let scratch = try BadInputTests.Scratch()
        let cache = scratch.path("cache")
        try FileManager.default.copyItem(atPath: Paths.fixture("sensors-gcc-dwarf5"), toPath: scratch.path("copy"))
        #expect(
            try Command.postmortem(["cache", "build", Self.fixture, scratch.path("copy")], cacheDirectory: cache).status
                == 0)
        #expect(Self.files(in: cache).indexes.count == 2)
        try FileManager.default.removeItem(atPath: scratch.path("copy"))
        // What writers left: one of a process that is gone, and one of a writer still at work (this test process).
        let gone = cache + "/buildid-0-0.pmindex.tmp-999999-1",
            atWork = cache + "/buildid-0-1.pmindex.tmp-\(getpid())-1"
        for leftover in [gone, atWork] { try Data(repeating: 7, count: 512).write(to: URL(fileURLWithPath: leftover)) }
        let pruned = try Command.postmortem(["cache", "prune"], cacheDirectory: cache)
        #expect(pruned.outputLines.contains { $0.contains("no longer exists") }, "\(pruned.standardOutput)")
        #expect(
            pruned.outputLines.contains {
                $0.contains("buildid-0-0.pmindex.tmp-999999-1") && $0.contains("left by an interrupted writer")
            },
            "\(pruned.standardOutput)")
        #expect(Self.files(in: cache).indexes.count == 1)
        #expect(
            Self.files(in: cache).temporary == ["buildid-0-1.pmindex.tmp-\(getpid())-1"],
            "a writer at work keeps its file")
    }

    /// A home that does not exist is never made, and a cache directory that cannot be made costs one line per run;
    /// `--no-cache` none.
    @Test(arguments: [
        ["HOME": "/nonexistent-home-of-postmortem", "POSTMORTEM_CACHE_DIR": "", "XDG_CACHE_HOME": ""],
        ["POSTMORTEM_CACHE_DIR": "/proc/postmortem-cache"],
        ["POSTMORTEM_CACHE_DIR": "/etc/hostname/postmortem"]
    ])
    func anUnusableCacheDirectoryCostsOneLine(_ environment: [String: String]) throws {
        for arguments in [
            ["resolve", "-o", Self.fixture, "0x14e3", "0x1500", "0x1600"],
            ["symbolicate", "-d", "SampleCrashes/linux-c-signal", "SampleCrashes/linux-c-signal/segv-pie.txt"]
        ] {
            let run = try Command.run(Paths.postmortem, arguments, environment: environment)
            #expect(run.status == 0)
            #expect(run.errorLines.filter { $0.contains("cache") }.count == 1, "\(run.standardError)")
            let off = try Command.run(
                Paths.postmortem, [arguments[0], "--no-cache"] + arguments.dropFirst(), environment: environment)
            #expect(!off.standardError.contains("cache"), "\(off.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent-home-of-postmortem"))
    }
}
