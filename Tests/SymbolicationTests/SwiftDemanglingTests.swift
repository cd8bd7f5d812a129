import Foundation
import SwiftDemangling
import Symbolication
import Synchronization
import TestSupport
import Testing

/// The Swift demangler of our own against the runtime's, on every Swift symbol of the toolchain's libraries and of
/// the fixtures: each name it gives must be the runtime's, and it must give most of them.
@Suite("Swift demangling")
struct SwiftDemanglingTests {
    /// The Swift functions of `path` (the symbols that name frames), as `nm` lists them (each once).
    private static func swiftSymbols(in path: String) throws -> [String] {
        let listing = try Fixtures.run("nm", ["--defined-only", path])
        let functions = listing.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, "TtWw".contains(fields[1]) else { return nil }
            return String(fields[2])
        }
        return Array(Set(functions.filter(Demangler.isSwift))).sorted()
    }

    /// The Swift runtime libraries of the toolchain that runs the tests, beside its `swift-demangle`.
    private static func toolchainLibraries() throws -> [String] {
        let tool = try Fixtures.run("sh", ["-c", "readlink -f \"$(command -v swift-demangle)\""])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let directory = URL(fileURLWithPath: tool).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/swift/linux")
        return [
            "libswiftCore.so", "libswift_Concurrency.so", "libswift_StringProcessing.so", "libFoundationEssentials.so"
        ]
        .map { directory.appendingPathComponent($0).path }
        .filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The toolchain's libraries, the Swift fixtures, and the binaries listed in `POSTMORTEM_DEMANGLING_BINARIES`
    /// (separated by `:`; the benchmark corpora, say).
    private static func corpus() throws -> [String] { try listedCorpus.get() }

    /// Listed once per test process: `nm` over the libraries takes seconds, and three tests read the list.
    private static let listedCorpus = Result { try listCorpus() }

    private static func listCorpus() throws -> [String] {
        var symbols: [String] = []
        let extra =
            ProcessInfo.processInfo.environment["POSTMORTEM_DEMANGLING_BINARIES"]?.split(separator: ":")
            .map(String.init) ?? []
        for path in try toolchainLibraries() + ["shapes-swift-O", "shapes-swift-Onone"].map(Fixtures.path) + extra {
            symbols += try swiftSymbols(in: path)
        }
        return symbols
    }

    @Test(arguments: [SwiftSymbolDemangler.Style.simplified, .full])
    func namesAreTheRuntimes(_ style: SwiftSymbolDemangler.Style) throws {
        let symbols = try Self.corpus()
        #expect(symbols.count > 20_000)
        let runtimeStyle: Demangler.Style = style == .full ? .full : .simplified
        var ours = SwiftSymbolDemangler()
        var answered = 0
        var differences: [String] = []
        var declined: [String] = []
        for symbol in symbols {
            guard let name = ours.demangle(symbol, style: style) else {
                declined.append(symbol)
                continue
            }
            answered += 1
            let expected = Demangler.runtimeDemangled(symbol, style: runtimeStyle)
            if name != expected { differences.append("\(symbol)\n  ours:    \(name)\n  runtime: \(expected)") }
        }
        if let file = ProcessInfo.processInfo.environment["SWIFT_DEMANGLING_DIFFERENCES"].map({ "\($0).\(style)" }) {
            try differences.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
            try declined.joined(separator: "\n").write(toFile: file + ".declined", atomically: true, encoding: .utf8)
        }
        #expect(differences.isEmpty, "\(differences.count) differ:\n\(differences.prefix(40).joined(separator: "\n"))")
        let share = Double(answered) / Double(symbols.count)
        #expect(share > 0.9, "answered \(answered) of \(symbols.count)")
        print("answered \(answered) of \(symbols.count)")
    }

    /// Damaged symbols (every prefix of 1,500 of them, and each with one byte changed) never crash it, and what it
    /// answers for them is still the runtime's answer.
    @Test func damagedSymbolsAreDeclinedOrAnsweredAsTheRuntimeDoes() throws {
        let symbols = try Self.corpus()
        let step = max(1, symbols.count / 1_500)
        let sample = stride(from: 0, to: symbols.count, by: step).map { symbols[$0] }
        var ours = SwiftSymbolDemangler()
        var tried = 0
        var differences: [String] = []
        var generator = SeededGenerator(seed: 0x5EED)
        for symbol in sample {
            var variants = (2..<symbol.utf8.count).map { String(symbol.utf8.prefix($0))! }
            var bytes = Array(symbol.utf8)
            let position = Int.random(in: 2..<bytes.count, using: &generator)
            bytes[position] = UInt8.random(in: 0x21...0x7E, using: &generator)
            variants.append(String(decoding: bytes, as: UTF8.self))
            for variant in variants {
                tried += 1
                if let name = ours.demangle(variant), name != Demangler.runtimeDemangled(variant, style: .simplified) {
                    differences.append("\(variant): \(name)")
                }
                if let name = ours.demangle(variant, style: .full),
                    name != Demangler.runtimeDemangled(variant, style: .full)
                {
                    differences.append("\(variant) (full): \(name)")
                }
            }
        }
        #expect(tried > 50_000)
        #expect(differences.isEmpty, "\(differences.count) differ: \(differences.prefix(10))")
    }

    /// One pool demangling for several threads at once answers each name as a demangler of its own does: no two
    /// threads ever write into the same buffers, a thread that comes while others demangle included, and with fewer
    /// slots than threads or none (a thread that finds them all claimed demangles with one of its own).
    @Test(arguments: [8, 1, 0])
    func aPoolSharedByThreadsAnswersAsOneDemanglerDoes(slots: Int) throws {
        let symbols = try Self.corpus()
        let step = max(1, symbols.count / 4_000)
        let sample = stride(from: 0, to: symbols.count, by: step).map { symbols[$0] }
        var alone = SwiftSymbolDemangler()
        let expected = sample.map { alone.demangle($0, style: .full) }
        let pool = SwiftDemanglerPool(slots: slots)
        let answers = Mutex([Int: String?]())
        let demangled = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            // Each thread starts once the ones before it have demangled some names (and left their demanglers to the
            // pool between names), then goes through the whole sample from its own place.
            while demangled.load(ordering: .relaxed) < thread * 200 { sched_yield() }
            var mine: [Int: String?] = [:]
            for turn in 0..<sample.count {
                let position = (turn + thread * sample.count / 4) % sample.count
                mine[position] = pool.demangle(sample[position], style: .full)
                demangled.add(1, ordering: .relaxed)
            }
            answers.withLock { $0.merge(mine) { first, _ in first } }
        }
        let differing = answers.withLock { answers in
            answers.filter { $0.value != expected[$0.key] }.map { sample[$0.key] }
        }
        #expect(sample.count > 3_000)
        #expect(differing.isEmpty, "\(differing.count) differ: \(differing.prefix(5))")
    }
}
