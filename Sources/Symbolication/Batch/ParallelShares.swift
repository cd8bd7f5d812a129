import Dispatch

/// Shares a batch out among workers, one thread each, and gathers what each share gives in input order.
///
/// Each worker (a symbolizer, which is not thread-safe) is used by exactly one thread while the batch runs, and the
/// inputs are split into contiguous shares: that is what makes ``ThreadConfined`` sound.
enum ParallelShares {
    /// Calls `body` once per worker with the worker's position, the worker and its contiguous share of `0..<count`
    /// (all of it, on the calling thread, when there is one worker or one input), and returns the results in the
    /// shares' order.
    static func run<Worker, Result>(
        count: Int, workers: [Worker], _ body: (Int, Worker, Range<Int>) -> Result
    ) -> [Result] {
        guard workers.count > 1, count > 1 else { return [body(0, workers[0], 0..<count)] }
        let share = (count + workers.count - 1) / workers.count
        let ranges = workers.indices.map { min($0 * share, count)..<min(($0 + 1) * share, count) }
        let results = workers.indices.map { _ in ThreadConfined<Result?>(nil) }
        let confinedWorkers = ThreadConfined(workers)
        withoutActuallyEscaping(body) { body in
            let confinedBody = ThreadConfined(body)
            DispatchQueue.concurrentPerform(iterations: ranges.count) { index in
                results[index].value = confinedBody.value(index, confinedWorkers.value[index], ranges[index])
            }
        }
        return results.map { $0.value! }
    }
}

/// The one unchecked box of the batch engine: a value that is not Sendable (a share's symbolizer, the body that uses
/// it, a read-ahead lane's work, a thread's result), handed to threads that each touch only their own part of it
/// while the batch runs; the results are read once every thread has finished (`concurrentPerform` returns only then).
final class ThreadConfined<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
