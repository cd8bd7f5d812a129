import Dispatch
import Synchronization

/// Shares a batch out among threads and gathers what each share gives in input order.
enum ParallelShares {
    /// Calls `body` once per share with the share's position and its contiguous part of `0..<count` (all of it, on
    /// the calling thread, when there is one share or one input), and returns the results in the shares' order.
    static func run<Result: Sendable>(count: Int, shares: Int, _ body: @Sendable (Int, Range<Int>) -> Result)
        -> [Result]
    {
        guard shares > 1, count > 1 else { return [body(0, 0..<count)] }
        let size = (count + shares - 1) / shares
        let ranges = (0..<shares).map { min($0 * size, count)..<min(($0 + 1) * size, count) }
        let results = Mutex<[Result?]>(Array(repeating: nil, count: ranges.count))
        DispatchQueue.concurrentPerform(iterations: ranges.count) { index in
            let result = body(index, ranges[index])
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0.map { $0! } }
    }
}
