import Foundation
import TestSupport
import Testing

/// The Swift backtracer's reports printed back as the runtime prints them itself: SampleCrashes/linux-swift-backtrace
/// holds each crash twice, made with address-space randomisation off, once unsymbolicated (crash.txt, crash.json,
/// pipeline.txt) and once as the runtime symbolicated it (the `-runtime` files): the oracle.
@Suite("Symbolicate: Swift backtracer reports as the runtime prints them")
struct SwiftBacktraceFidelityTests {
    static let folder = "SampleCrashes/linux-swift-backtrace"

    /// The lines of a report's threads: from the first `Thread` header to `Registers:`.
    static func threadLines(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.firstIndex(where: { $0.hasPrefix("Thread ") }) else { return [] }
        let end = lines[first...].firstIndex { $0.hasPrefix("Registers:") } ?? lines.count
        return Array(lines[first..<end])
    }

    /// Names (simplified), offsets (from the call for a return address), tags (`[ra]`, `[thunk]`), numbers and columns:
    /// every thread line equals the runtime's.
    @Test func textEqualsTheRuntimesOwnReport() throws {
        try SampleMachine.require(SampleMachine.swiftRuntime())
        let ours = try Command.postmortem(["symbolicate", "--no-cache", "\(Self.folder)/crash.txt"])
        #expect(ours.status == 0, "\(ours.standardError)")
        let runtime = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(Self.folder)/crash-runtime.txt").path,
            encoding: .utf8)
        let expected = Self.threadLines(runtime)
        #expect(expected.contains { $0.contains("[thunk]") } && expected.count > 8)
        #expect(Self.threadLines(ours.standardOutput) == expected)
    }

    /// In the JSON format every frame object equals the runtime's: `symbol` mangled, `description` readable with its
    /// offset, `offset`, `thunk`, `image`, `sourceLocation`.
    @Test func jsonFramesEqualTheRuntimesOwnReport() throws {
        func frames(_ text: String) throws -> [NSDictionary] {
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("{") })
            let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let threads = try #require(report["threads"] as? [[String: Any]])
            return try #require(threads.first { $0["crashed"] as? Bool == true }?["frames"] as? [NSDictionary])
        }
        try SampleMachine.require(SampleMachine.swiftRuntime())
        let ours = try Command.postmortem(["symbolicate", "--no-cache", "\(Self.folder)/crash.json"])
        #expect(ours.status == 0, "\(ours.standardError)")
        let runtime = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(Self.folder)/crash-runtime.json").path,
            encoding: .utf8)
        let expected = try frames(runtime)
        #expect(expected.count >= 7 && expected.contains { $0["thunk"] as? Bool == true })
        #expect(try frames(ours.standardOutput) == expected)
    }

    /// A crash in a Swift async function, reported by the runtime twice with address-space randomisation off: once
    /// unsymbolicated, once symbolicated by the runtime itself (the oracle). The first printed back here gives the
    /// crashed thread the runtime gives, line for line in text and frame for frame in JSON: `[async]` resume points
    /// without an offset, compiler-generated code at `//<compiler-generated>` as the runtime joins its path, no location
    /// from a symbol table's file name.
    @Test(arguments: ["text", "json"])
    func anAsyncCrashsThreadIsTheRuntimesOwn(_ format: String) throws {
        let directory = try CrashingPrograms.directory.get()
        func report(symbolicated: Bool) throws -> String {
            let settings =
                "enable=yes,interactive=no,color=no,format=\(format)" + (symbolicated ? "" : ",symbolicate=off")
            let run = try Command.run(
                "/bin/sh", ["-c", "exec setarch -R '\(directory)/with-default-signals' '\(directory)/crashes' async"],
                environment: ["SWIFT_BACKTRACE": settings])
            return run.standardError
        }
        let raw = try report(symbolicated: false), runtime = try report(symbolicated: true)
        let log = Fixtures.scratchDirectory("async-runtime") + (format == "json" ? "/crash.json" : "/crash.txt")
        try raw.write(toFile: log, atomically: true, encoding: .utf8)
        let ours = try Command.postmortem(["symbolicate", "--no-cache", log])
        #expect(ours.status == 0, "\(ours.standardError)")
        if format == "json" {
            func frames(_ text: String) throws -> [NSDictionary] {
                let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("{") }, "\(text)")
                let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let threads = try #require(report["threads"] as? [[String: Any]])
                return try #require(threads.first { $0["crashed"] as? Bool == true }?["frames"] as? [NSDictionary])
            }
            let expected = try frames(runtime)
            #expect(expected.filter { $0["kind"] as? String == "asyncResumePoint" }.count >= 4, "\(runtime)")
            #expect(try frames(ours.standardOutput) == expected)
        } else {
            func crashed(_ text: String) -> [String] {
                let lines = Self.threadLines(text)
                guard let start = lines.firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix(" crashed:") })
                else { return [] }
                // Its frame lines, from the first to the blank line after the last: how many blank lines come before
                // the next thread or the registers depends on which threads the run had, not on the crash.
                return Array(lines[(start + 1)...].drop { $0.isEmpty }.prefix { !$0.isEmpty })
            }
            let expected = crashed(runtime)
            #expect(
                expected.filter { $0.contains("[async]") }.count >= 4
                    && expected.contains { $0.contains("//<compiler-generated>") },
                "\(runtime)")
            #expect(crashed(ours.standardOutput) == expected)
        }
    }

    /// An optimised crash: its inlined frames come as the runtime lays them out (each numbered, `[inlined]`, `[system]`
    /// for compiler-generated code, the address repeated, no offset), the frame holding them as the runtime prints it.
    /// The chain itself is the debug information's, as llvm-symbolizer reads it (the runtime's names each frame with
    /// the location of the one inside it, and leaves some out).
    @Test func inlinedFramesAreLaidOutAsTheRuntimeDoes() throws {
        let ours = try Command.postmortem(["symbolicate", "--no-cache", "\(Self.folder)/pipeline.txt"])
        #expect(ours.status == 0, "\(ours.standardError)")
        let runtime = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(Self.folder)/pipeline-runtime.txt").path,
            encoding: .utf8)
        func crashed(_ lines: [String]) -> [String] {
            guard let start = lines.firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix(" crashed:") }) else {
                return []
            }
            return Array(lines[(start + 2)...].prefix { !$0.isEmpty })
        }
        let theirs = crashed(Self.threadLines(runtime)), mine = crashed(Self.threadLines(ours.standardOutput))
        #expect(theirs.count >= 4 && mine.count >= theirs.count)
        // The frame that holds the inlined ones, and the elision after it, print as the runtime prints them.
        let outer = try #require(theirs.first { !$0.contains("[inlined]") && $0.contains(" + ") })
        let outerStart = try #require(outer.range(of: "0x"))
        // Up to its place, which is the debug information's (checked below).
        let outerFrame = String(outer[outerStart.lowerBound...].prefix { $0 != "@" }).components(separatedBy: " at ")[0]
        #expect(mine.contains { $0.contains(outerFrame + " at ") && !$0.contains("[inlined]") }, "\(mine)")
        #expect(mine.last == "..." && theirs.last == "...")
        // Every line: a three-wide number counting on, the tag column as wide as the widest, then the address.
        let address = String(outer[outerStart.lowerBound...].prefix(18))
        for (number, line) in mine.dropLast().enumerated() {
            let start = try #require(line.range(of: address), "\(line)")
            #expect(line.hasPrefix(String(repeating: " ", count: 3 - String(number).count) + "\(number) "), "\(line)")
            #expect(
                line.distance(from: line.startIndex, to: start.lowerBound)
                    == mine[0].range(of: address).map { mine[0].distance(from: mine[0].startIndex, to: $0.lowerBound) })
            #expect(line.contains("[inlined]") == (number < mine.count - 2), "\(line)")
            #expect(line.contains(" + ") == (number == mine.count - 2), "an inlined frame has no offset: \(line)")
        }
        #expect(mine.filter { $0.contains("[system]") }.allSatisfy { $0.contains("<compiler-generated>") })
        // The chain, innermost first, is llvm-symbolizer's for the same address.
        let text = try String(
            contentsOfFile: Paths.packageRoot.appendingPathComponent("\(Self.folder)/pipeline.txt").path,
            encoding: .utf8)
        let image = try #require(text.split(separator: "\n").first { $0.hasSuffix("/tmp/postmortem-sample/pipeline") })
        let base = try #require(UInt64(image.dropFirst(2).prefix { $0.isHexDigit }, radix: 16))
        let pc = try #require(UInt64(address.dropFirst(2), radix: 16))
        let chain = try SignalCrashTests.llvmChain(
            Paths.packageRoot.appendingPathComponent("\(Self.folder)/pipeline").path, pc - base)
        #expect(chain.count == mine.count - 1)
        for (line, frame) in zip(mine, chain) {
            #expect(
                line.hasSuffix(" at \(frame.file ?? "")" + (frame.line > 0 ? ":\(frame.line):\(frame.column)" : "")),
                "\(line) / \(frame)")
        }
    }

    /// `--full-names` gives the full demangling (modules, argument and result types).
    @Test func fullNamesOnRequest() throws {
        let full = try Command.postmortem(["symbolicate", "--no-cache", "--full-names", "\(Self.folder)/crash.txt"])
            .standardOutput
        #expect(full.contains("inventory.Inventory.required(Swift.String) -> Swift.Int + "))
        #expect(
            full.contains(
                "partial apply forwarder for closure #1 (Swift.Int, Swift.String) -> Swift.Int in inventory.restock("))
    }
}
