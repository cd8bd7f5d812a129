import Dispatch
import ObjectFiles
@testable import Symbolication
import Testing
import TestSupport
import PostmortemCore

/// Symbolizers of one image on two threads at once: each reads DWARF through its own libdwarf session,
/// they share the units either reads, and together they answer exactly as one symbolizer alone.
@Suite("Parallel lookups")
struct ParallelLookupTests {
    /// Every `step`-th byte of the image's code.
    static func codeAddresses(of symbolizer: ImageSymbolizer, step: UInt64) -> [FileAddress] {
        symbolizer.image.sections.filter(\.isExecutable).flatMap { section -> [FileAddress] in
            let range = section.addressRange
            return stride(from: range.lowerBound.rawValue, to: range.upperBound.rawValue, by: Int(step)).map { FileAddress($0) }
        }
    }

    /// Runs `body(0)` and `body(1)` on two threads at once.
    static func onTwoThreads(_ body: @escaping (Int) -> Void) {
        let box = UncheckedBox(body)
        DispatchQueue.concurrentPerform(iterations: 2) { lane in box.value(lane) }
    }

    @Test(arguments: ["shapes-swift-O", "shapes-swift-Onone", "inventory-gcc-typeunits5", "sensors-clang-gz"])
    func siblingsOnTwoThreadsAnswerAsOneSymbolizer(_ fixture: String) throws {
        let path = Fixtures.path(fixture)
        let alone = try ImageSymbolizer(path: path)
        let addresses = Self.codeAddresses(of: alone, step: 3)
        try #require(addresses.count > 300)
        let expected = addresses.map(alone.resolve)
        #expect(expected.contains { !$0.frames.isEmpty && $0.frames.first?.line != 0 }, "the fixture's DWARF answers some addresses")

        // Several rounds, since a race shows only now and then: units read ahead on two threads (every other
        // round), then each thread resolving every address (one forwards, one backwards), on fresh symbolizers.
        for round in 0..<8 {
            let first = try ImageSymbolizer(path: path)
            let second = try #require(first.sibling(), "a symbolizer reading DWARF has a sibling")
            let workers = [first, second]
            if round % 2 == 0 { first.readAhead(addresses, threads: 2) }
            let answers = UncheckedBox([[AddressResolution]](repeating: [], count: 2))
            Self.onTwoThreads { lane in
                let order = lane == 0 ? Array(addresses) : addresses.reversed()
                let resolved = order.map(workers[lane].resolve)
                answers.update { $0[lane] = lane == 0 ? resolved : resolved.reversed() }
            }
            #expect(answers.value[0] == expected, "round \(round): the first symbolizer's answers differ")
            #expect(answers.value[1] == expected, "round \(round): the sibling's answers differ")
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
        // A sibling made after reading ahead takes over a session it opened, and answers alike.
        let sibling = try #require(symbolizer.sibling())
        #expect(addresses.reversed().map(sibling.resolve) == addresses.reversed().map(alone.resolve))
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
        let every = { (step: Int, offset: Int) in stride(from: offset, to: addresses.count, by: step).map { addresses[$0] } }
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

/// A value two threads of a test touch at separate times, or in separate elements under the lock.
private final class UncheckedBox<Value>: @unchecked Sendable {
    private let lock = DispatchQueue(label: "UncheckedBox")
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.sync { stored } }
    func update(_ change: (inout Value) -> Void) { lock.sync { change(&stored) } }
}
