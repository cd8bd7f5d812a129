import Dispatch

/// Shares a batch out among workers, one thread each, and gathers what each share gives in input order.
///
/// Each worker (a symbolizer, which is not thread-safe) is used by exactly one thread while the batch runs, and the
/// inputs are split into contiguous shares: that is what makes ``WorkerBox`` sound.
enum ParallelShares {
    /// Calls `body` once per worker with the worker's position, the worker and its contiguous share of `0..<count`
    /// (all of it, on the calling thread, when there is one worker or one input), and returns the results in the
    /// shares' order.
    static func run<Worker, Result>(
        count: Int, workers: [Worker], _ body: (Int, Worker, Range<Int>) -> Result
    ) -> [Result] {
        guard workers.count > 1, count > 1 else { return [body(0, workers[0], 0..<count)] }
        let share = (count + workers.count - 1) / workers.count
        let slots = workers.indices.map { index in
            WorkerBox<Worker, Result>(worker: workers[index], range: min(index * share, count)..<min((index + 1) * share, count))
        }
        withoutActuallyEscaping(body) { body in
            let work = WorkerBox<(Int, Worker, Range<Int>) -> Result, Void>(worker: body, range: 0..<0)
            DispatchQueue.concurrentPerform(iterations: slots.count) { index in
                let slot = slots[index]
                slot.result = work.worker(index, slot.worker, slot.range)
            }
        }
        return slots.map { $0.result! }
    }
}

/// The one unchecked box of the batch engine: a worker (or the body that uses one) that is not Sendable, handed to
/// the thread that alone uses it while a batch runs (a share's symbolizer; a read-ahead lane's libdwarf session), and
/// that thread's result, read once every thread has finished (`concurrentPerform` returns only then).
final class WorkerBox<Worker, Result>: @unchecked Sendable {
    let worker: Worker
    let range: Range<Int>
    var result: Result?

    init(worker: Worker, range: Range<Int>) {
        self.worker = worker
        self.range = range
    }
}
