import Dispatch
import Foundation
import ObjectFiles
import PostmortemCore
import Synchronization
import TestSupport
import Testing

@testable import Symbolication

/// One symbolizer asked on two threads at once, reading DWARF or the index cache: the threads share the units either
/// reads, the names either works out, and together they answer exactly as a symbolizer asked on one thread.
@Suite("Parallel lookups")
struct ParallelLookupTests {
    /// Every `step`-th byte of the image's code.
    static func codeAddresses(of symbolizer: ImageSymbolizer, step: UInt64) -> [FileAddress] {
        symbolizer.image.sections.filter(\.isExecutable).flatMap { section -> [FileAddress] in
            let range = section.addressRange
            return stride(from: range.lowerBound.rawValue, to: range.upperBound.rawValue, by: Int(step)).map {
                FileAddress($0)
            }
        }
    }

    /// What `symbolizer` answers for `addresses` on two threads at once, one going forwards and one backwards, each
    /// thread's answers in the order of `addresses`.
    static func answersOnTwoThreads(_ symbolizer: ImageSymbolizer, _ addresses: [FileAddress]) -> [[AddressResolution]]
    {
        let answers = Mutex([[AddressResolution]](repeating: [], count: 2))
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            let resolved =
                lane == 0 ? addresses.map(symbolizer.resolve) : addresses.reversed().map(symbolizer.resolve).reversed()
            answers.withLock { $0[lane] = resolved }
        }
        return answers.withLock { $0 }
    }

    @Test(arguments: ["shapes-swift-O", "shapes-swift-Onone", "inventory-gcc-typeunits5", "sensors-clang-gz"])
    func oneSymbolizerOnTwoThreadsAnswersAsOnOne(_ fixture: String) throws {
        let path = Fixtures.path(fixture)
        let alone = try ImageSymbolizer(path: path)
        let addresses = Self.codeAddresses(of: alone, step: 3)
        try #require(addresses.count > 300)
        let expected = addresses.map(alone.resolve)
        #expect(
            expected.contains { !$0.frames.isEmpty && $0.frames.first?.line != 0 },
            "the fixture's DWARF answers some addresses")

        // Several rounds, since a race shows only now and then: units read ahead on two threads (every other
        // round), then two threads resolving every address (one forwards, one backwards), on fresh symbolizers.
        for round in 0..<8 {
            let symbolizer = try ImageSymbolizer(path: path)
            if round % 2 == 0 { symbolizer.readAhead(addresses, threads: 2) }
            let answers = Self.answersOnTwoThreads(symbolizer, addresses)
            #expect(answers[0] == expected, "round \(round): the first thread's answers differ")
            #expect(answers[1] == expected, "round \(round): the second thread's answers differ")
        }
    }

    /// The same from an index-cache file: two threads checking, decoding and naming the same units at once.
    @Test(arguments: ["shapes-swift-O", "inventory-gcc"])
    func oneSymbolizerOnTwoThreadsAnswersAsOnOneFromTheIndexCache(_ fixture: String) throws {
        let path = Fixtures.path(fixture)
        let alone = try ImageSymbolizer(path: path)
        let addresses = Self.codeAddresses(of: alone, step: 3)
        let expected = addresses.map(alone.resolve)
        let cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "postmortem-parallel-\(UUID())"
        ).path
        defer { try? FileManager.default.removeItem(atPath: cacheDirectory) }
        var options = SymbolizerOptions()
        options.indexCache = IndexCache(directory: cacheDirectory)
        try ImageSymbolizer(path: path, options: options).writeIndexCache()
        for round in 0..<4 {
            let symbolizer = try ImageSymbolizer(path: path, options: options)
            try #require(symbolizer.indexCacheFile != nil, "the image is read from its index-cache file")
            let answers = Self.answersOnTwoThreads(symbolizer, addresses)
            #expect(answers[0] == expected, "round \(round): the first thread's answers differ")
            #expect(answers[1] == expected, "round \(round): the second thread's answers differ")
        }
    }

    @Test(arguments: [1, 2, 3])
    func readingAheadChangesNoAnswer(threads: Int) throws {
        let path = Fixtures.path("shapes-swift-O")
        let alone = try ImageSymbolizer(path: path)
        let addresses = Self.codeAddresses(of: alone, step: 5)
        let symbolizer = try ImageSymbolizer(path: path)
        symbolizer.readAhead(addresses, threads: threads)
        #expect(addresses.map(symbolizer.resolve) == addresses.map(alone.resolve))
    }

    /// Units read ahead for some addresses hold only what those need: reading ahead again for others reads a unit
    /// again for both (then, after a bound, whole), and a lookup of an address never read ahead reads it whole. No
    /// answer changes.
    @Test(arguments: ["shapes-swift-O", "inventory-gcc", "sensors-clang-gz"])
    func readingAheadForSomeAddressesChangesNoAnswer(_ fixture: String) throws {
        let path = Fixtures.path(fixture)
        let alone = try ImageSymbolizer(path: path)
        let addresses = Self.codeAddresses(of: alone, step: 3)
        let expected = addresses.map(alone.resolve)
        let symbolizer = try ImageSymbolizer(path: path)
        let every = { (step: Int, offset: Int) in
            stride(from: offset, to: addresses.count, by: step).map { addresses[$0] }
        }
        symbolizer.readAhead(every(7, 0), threads: 2)
        #expect(every(7, 0).map(symbolizer.resolve) == every(7, 0).map(alone.resolve))
        // More batches with other addresses than a unit is read partially for: the last ones read units whole.
        for offset in 1...UnitStore.partialReadingsPerUnit + 2 {
            symbolizer.readAhead(every(5, offset), threads: 2)
            #expect(every(5, offset).map(symbolizer.resolve) == every(5, offset).map(alone.resolve))
        }
        #expect(addresses.map(symbolizer.resolve) == expected)
    }
}
