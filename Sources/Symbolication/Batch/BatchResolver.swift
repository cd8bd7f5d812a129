public import PostmortemCore

/// Answers batches of addresses of one image, as fast as the image allows: a large batch is shared between the
/// symbolizer and a sibling of it on two threads, and what a large input needs from DWARF is read ahead first, on
/// two threads reading different units. For one caller at a time (a server keeps one per image and request stream).
public final class BatchResolver {
    /// The symbolizer batches are answered with, and the first to answer a shared one.
    public let symbolizer: ImageSymbolizer
    /// A batch this large is shared between two symbolizers on two threads (each reading DWARF through its own
    /// libdwarf session, or both reading the index cache).
    public static let parallelBatchSize = 256
    /// Input this large has what it needs from DWARF read ahead: a few addresses are cheaper to answer one at a time
    /// from the subprograms that hold them.
    public static let readAheadSize = 16
    /// The most shares a batch is split into (``shares(count:_:)`` numbers them from 0): this symbolizer and a sibling.
    public static let maximumShares = 2

    /// The sibling that answers half of a large batch; `.some(nil)` once one could not be opened.
    private var helper: ImageSymbolizer??
    private let sharesBatches: Bool

    /// - Parameter sharesBatches: whether large batches are shared out among threads (not when answering them
    ///   involves work that must stay on one thread, reading source files in order, say).
    public init(symbolizer: ImageSymbolizer, sharesBatches: Bool = true) {
        self.symbolizer = symbolizer
        self.sharesBatches = sharesBatches
    }

    /// The symbolizers that answered besides ``symbolizer`` (kept alive by a caller that ends the process without
    /// tearing down).
    public var helpers: [ImageSymbolizer] { (helper ?? nil).map { [$0] } ?? [] }

    /// Reads ahead what `addresses` need from DWARF, when there are enough of them and lookups read DWARF.
    package func readAhead(_ addresses: [FileAddress]) {
        guard addresses.count >= Self.readAheadSize, symbolizer.readsAhead else { return }
        symbolizer.readAhead(addresses, threads: 2)
    }

    /// Calls `answer` once per share of `0..<count` with the share's position (0 or 1), the symbolizer to use and the
    /// share, on a thread of its own when the batch is large; returns the results in the shares' order.
    public func shares<Result>(count: Int, _ answer: (Int, ImageSymbolizer, Range<Int>) -> Result) -> [Result] {
        ParallelShares.run(count: count, workers: workers(for: count), answer)
    }

    /// What each address resolves to, in order.
    public func resolve(_ addresses: [FileAddress]) -> [AddressResolution] {
        readAhead(addresses)
        return shares(count: addresses.count) { _, symbolizer, range in range.map { symbolizer.resolve(addresses[$0]) } }
            .flatMap { $0 }
    }

    private func workers(for count: Int) -> [ImageSymbolizer] {
        guard sharesBatches, count >= Self.parallelBatchSize else { return [symbolizer] }
        if helper == nil { helper = .some(symbolizer.sibling()) }
        return [symbolizer] + helpers
    }
}
