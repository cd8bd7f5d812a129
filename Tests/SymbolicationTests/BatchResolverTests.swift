import Glibc
import ObjectFiles
import PostmortemCore
import Symbolication
import Synchronization
import TestSupport
import Testing

/// The library's batch engine: a batch shared out on two threads answers exactly as one symbolizer answering the
/// addresses one by one, in order, after reading ahead or not, from DWARF or from the index cache.
@Suite("Batch resolver")
struct BatchResolverTests {
    @Test(arguments: ["inventory-gcc", "shapes-swift-O", "sensors-clang-gz"])
    func sharedBatchesAnswerAsOneSymbolizer(_ fixture: String) throws {
        let path = Fixtures.path(fixture)
        let alone = try ImageSymbolizer(path: path)
        let addresses = ParallelLookupTests.codeAddresses(of: alone, step: 2)
        try #require(addresses.count >= BatchResolver.parallelBatchSize, "a batch large enough to be shared")
        let expected = addresses.map(alone.resolve)

        let resolver = BatchResolver(symbolizer: try ImageSymbolizer(path: path))
        #expect(
            resolver.threadCount(for: addresses.count) == 2, "a batch of \(addresses.count) addresses is shared out")
        #expect(resolver.resolve(addresses) == expected)
        // Again, with the units read: the same answers, in the same order, and a small batch on one thread.
        #expect(resolver.resolve(addresses) == expected)
        #expect(resolver.resolve(Array(addresses.prefix(10))) == Array(expected.prefix(10)))

        let oneThread = BatchResolver(symbolizer: try ImageSymbolizer(path: path), sharesBatches: false)
        #expect(oneThread.threadCount(for: addresses.count) == 1)
        #expect(oneThread.resolve(addresses) == expected)
    }

    @Test("Shares cover the batch once, in order")
    func sharesCoverTheBatch() throws {
        let resolver = BatchResolver(symbolizer: try ImageSymbolizer(path: Fixtures.path("inventory-gcc")))
        let count = BatchResolver.parallelBatchSize * 2 + 1
        let shares = resolver.shares(count: count) { position, range in (position, range) }
        #expect(shares.map(\.0) == Array(0..<shares.count))
        #expect(shares.count > 2, "shares are smaller than half a batch")
        #expect(shares.flatMap { Array($0.1) } == Array(0..<count))
        #expect(shares.dropLast().allSatisfy { $0.1.count == shares[0].1.count })
        // A small batch stays on the calling thread, in one share.
        #expect(resolver.shares(count: 10) { position, range in (position, range) }.map(\.1) == [0..<10])
    }

    @Test("While one share is slow, the other thread takes every other share")
    func aSlowShareDoesNotHoldBackTheRest() throws {
        let resolver = BatchResolver(symbolizer: try ImageSymbolizer(path: Fixtures.path("inventory-gcc")))
        let count = BatchResolver.parallelBatchSize * 4
        let othersStarted = Atomic(0)
        let done = Atomic(0)
        let shares = resolver.shares(count: count) { position, range -> Int? in
            guard position == 0 else {
                othersStarted.wrappingAdd(1, ordering: .releasing)
                done.wrappingAdd(range.count, ordering: .releasing)
                return 0
            }
            // Held while another thread answers the rest. The other thread may not start at all while the test
            // runner's threads are busy (the batch's threads come from the same pool): then there is nothing to
            // judge, and this share's thread answers the rest itself. Both waits are bounded, so that a wrong
            // split fails rather than hangs.
            let deadline = ContinuousClock.now + .seconds(30)
            while othersStarted.load(ordering: .acquiring) == 0, ContinuousClock.now < deadline { usleep(1000) }
            guard othersStarted.load(ordering: .acquiring) > 0 else { return nil }
            while done.load(ordering: .acquiring) < count - range.count, ContinuousClock.now < deadline {
                usleep(1000)
            }
            return done.load(ordering: .acquiring)
        }
        #expect(shares.count > 2)
        if let answeredMeanwhile = shares[0] {
            #expect(answeredMeanwhile == count - LookupTuning.shareSize, "the other thread answered the rest meanwhile")
        }
    }
}
