/// The rules that change how a lookup works with how many came before it, or how large a batch is, in one place:
/// each trades the cost of preparing for many lookups against the few that a short run makes.
package enum LookupTuning {
    /// Lookups that scan the symbol tables as the file lists them before the tables are sorted: sorting a Swift
    /// binary's 100,000 symbols costs as much as hundreds of scans, which a one-address run never recovers.
    package static let scansBeforeSorting = 8
    /// Lookups that read only the subprograms holding their address (and the line rows they need) rather than the
    /// whole unit: a single lookup in a large unit then costs a fraction of reading it, while later lookups read whole
    /// units, which batches share.
    package static let targetedLookups = 4
    /// Input this large has what it needs from DWARF read ahead, on two threads reading different units: a few
    /// addresses are cheaper to answer one at a time from the subprograms that hold them.
    package static let readAheadSize = 16
    /// A batch this large is shared out among threads: below it, starting threads costs more than they save.
    package static let parallelBatchSize = 256
    /// The most threads a batch is shared among: the machines this runs on have two cores to a job.
    package static let maximumThreads = 2
    /// The inputs of one share of a batch, which the threads take in turn: small enough that neither thread waits
    /// long for the other's last share, large enough that taking shares costs nothing beside answering them.
    package static let shareSize = 32
    /// How many times a unit is read for some addresses before a batch with others in it reads it whole: a stream of
    /// batches that keep falling in one large unit reads it a bounded number of times, not once per batch.
    package static let partialReadingsPerUnit = 2
    /// The most lookups the memos make room for ahead of a batch (``ImageSymbolizer/expect(lookups:)``): room for what a
    /// batch will not fill costs memory, and memos still grow past it.
    package static let reservedLookups = 65_536
}
