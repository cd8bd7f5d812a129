public import PostmortemCore

/// Answers batches of addresses of one image, as fast as the image allows: a large batch is shared out among threads
/// that all ask the one symbolizer, and what a large input needs from DWARF is read ahead first, on two threads
/// reading different units.
public struct BatchResolver: Sendable {
    /// The symbolizer batches are answered with.
    public let symbolizer: ImageSymbolizer
    /// A batch this large is shared out among threads (``LookupTuning/parallelBatchSize``).
    package static let parallelBatchSize = LookupTuning.parallelBatchSize
    /// The most threads a batch is shared among.
    package static let maximumThreads = LookupTuning.maximumThreads
    private let sharesBatches: Bool

    /// - Parameter sharesBatches: whether large batches are shared out among threads (not when answering them
    ///   involves work that must stay on one thread, reading source files in order, say).
    public init(symbolizer: ImageSymbolizer, sharesBatches: Bool = true) {
        self.symbolizer = symbolizer
        self.sharesBatches = sharesBatches
    }

    /// Reads ahead what `addresses` need from DWARF, when there are enough of them and lookups read DWARF; makes room
    /// in the memos for them when they will be shared out among threads.
    package func readAhead(_ addresses: [FileAddress]) {
        if threadCount(for: addresses.count) > 1 { symbolizer.expect(lookups: addresses.count) }
        guard addresses.count >= LookupTuning.readAheadSize, symbolizer.readsAhead else { return }
        symbolizer.readAhead(addresses, threads: Self.maximumThreads)
    }

    /// How many threads a batch of `count` inputs is shared among.
    package func threadCount(for count: Int) -> Int {
        sharesBatches && count >= Self.parallelBatchSize ? Self.maximumThreads : 1
    }

    /// Calls `answer` once per share of `0..<count` with the share's position (from 0) and the share: the whole batch
    /// on the calling thread when it is small, else shares of ``LookupTuning/shareSize`` taken in turn by the threads;
    /// returns the results in the shares' order.
    package func shares<Result: Sendable>(count: Int, _ answer: @Sendable (Int, Range<Int>) -> Result) -> [Result] {
        ParallelShares.run(
            count: count, threads: threadCount(for: count), shareSize: LookupTuning.shareSize, answer)
    }

    /// What each address resolves to, in order.
    public func resolve(_ addresses: [FileAddress]) -> [AddressResolution] {
        readAhead(addresses)
        return shares(count: addresses.count) { [symbolizer] _, range in range.map { symbolizer.resolve(addresses[$0]) }
        }
        .flatMap { $0 }
    }
}
