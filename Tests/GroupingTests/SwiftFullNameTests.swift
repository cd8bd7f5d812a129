import Foundation
import Grouping
import TestSupport
import Testing

/// Swift names demangled in full, as older runtimes and other tools print them, normalise as the same names
/// demangled in the simplified form do: the oracle is the toolchain's own `swift demangle` and `swift demangle
/// --simplified`, over every function symbol of the Swift runtime library and the Swift samples.
@Suite("Full Swift names")
struct SwiftFullNameTests {
    static func swiftDemangle(_ symbols: [String], simplified: Bool) throws -> [String] {
        let run = try Command.run(
            "/usr/bin/env", ["swift", "demangle"] + (simplified ? ["--simplified"] : []),
            input: symbols.joined(separator: "\n") + "\n")
        try #require(run.status == 0, "swift demangle: \(run.standardError)")
        return run.outputLines
    }

    /// The Swift function symbols of `binary` (`nm`), as mangled.
    static func functionSymbols(_ binary: String, dynamic: Bool) throws -> [String] {
        let run = try Command.run(
            "/usr/bin/env", ["nm"] + (dynamic ? ["-D", "--defined-only"] : ["--defined-only"]) + [binary])
        try #require(run.status == 0, "nm \(binary): \(run.standardError)")
        return run.outputLines.compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, "tTwW".contains(fields[1]), fields[2].hasPrefix("$s") else { return nil }
            return String(fields[2])
        }
    }

    @Test("The runtime library's and the samples' functions: full and simplified demanglings normalise alike")
    func fullAgreesWithSimplified() throws {
        let swiftc = try #require(
            ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
                .map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }, "swiftc on PATH")
        let runtime = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("lib/swift/linux/libswiftCore.so").path
        var symbols = try Self.functionSymbols(runtime, dynamic: true)
        for sample in ["linux-swift-backtrace/inventory", "linux-swift-backtrace/pipeline", "linux-groups/ledger"] {
            symbols += try Self.functionSymbols(Fixtures.packageRoot.path + "/SampleCrashes/" + sample, dynamic: false)
        }
        #expect(symbols.count > 5_000)
        let full = try Self.swiftDemangle(symbols, simplified: false)
        let simplified = try Self.swiftDemangle(symbols, simplified: true)
        try #require(full.count == symbols.count && simplified.count == symbols.count)
        var differing: [(String, String, String)] = []
        var compared = 0
        for (long, short) in zip(full, simplified)
        where short.hasSuffix(")") || short.hasSuffix("getter") || short.hasSuffix("setter")
            || short.hasSuffix("modify")
            || short.hasSuffix("read")
        {
            let skipped = [
                "thunk", "outlined", "witness", "descriptor", "metadata", "async function pointer", "@objc", "merged",
                "dispatch"
            ]
            guard !skipped.contains(where: short.contains) else { continue }
            compared += 1
            let ours = FunctionNameNormalizer.normalize(long), theirs = FunctionNameNormalizer.normalize(short)
            if ours != theirs { differing.append((long, ours, theirs)) }
        }
        print("\(compared - differing.count)/\(compared) full Swift names normalise as their simplified form does")
        #expect(compared > 3_000)
        let examples = differing.prefix(8).map { "\($0.0)\n  ours:   \($0.1)\n  theirs: \($0.2)" }.joined(
            separator: "\n")
        #expect(differing.count == 0, Comment(rawValue: "\(differing.count) differ, e.g.\n\(examples)"))
    }
}
