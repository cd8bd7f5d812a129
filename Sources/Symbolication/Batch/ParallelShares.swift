import Dispatch
import Synchronization

/// Shares a batch out among threads and gathers what each share gives in input order.
///
/// The batch is cut into many small shares that the threads take in turn, each the next one left, rather than into
/// one share a thread: addresses differ in cost (one whose unit or name was not read yet costs a hundred times one
/// whose were), and with one share each, the thread given the cheaper half waited for the other at every batch.
enum ParallelShares {
    /// Calls `body` once per share with the share's position and its contiguous part of `0..<count` (all of it, on
    /// the calling thread, when there is one thread or one input), on up to `threads` threads, and returns the
    /// results in the shares' order.
    /// - Parameter shareSize: the most inputs a share holds.
    static func run<Result: Sendable>(
        count: Int, threads: Int, shareSize: Int, _ body: @Sendable (Int, Range<Int>) -> Result
    ) -> [Result] {
        guard threads > 1, count > 1 else { return [body(0, 0..<count)] }
        let size = max(1, shareSize)
        let shares = (count + size - 1) / size
        let next = Atomic(0)
        let results = Mutex<[Result?]>(Array(repeating: nil, count: shares))
        DispatchQueue.concurrentPerform(iterations: min(threads, shares)) { _ in
            while true {
                let share = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard share < shares else { return }
                let result = body(share, share * size..<min((share + 1) * size, count))
                results.withLock { $0[share] = result }
            }
        }
        return results.withLock { $0.map { $0! } }
    }
}
