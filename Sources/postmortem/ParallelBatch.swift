import Dispatch

/// Shares a batch of inputs out among workers, one thread each, and gathers what each share gives in input order.
///
/// Each worker (a symbolizer, which is not thread-safe) is used by exactly one thread while the batch
/// runs, and the inputs are split into contiguous shares; that is what makes the unchecked boxes below sound.
enum ParallelBatch {
    /// Calls `body` once per worker with that worker and its contiguous share of `inputs` (all of them, on the
    /// calling thread, when there is one worker or one input), and returns the results in the shares' order.
    static func shares<Worker, Result>(
        _ inputs: [String], workers: [Worker], _ body: (Worker, ArraySlice<String>) -> Result
    ) -> [Result] {
        guard workers.count > 1, inputs.count > 1 else { return [body(workers[0], inputs[...])] }
        let share = (inputs.count + workers.count - 1) / workers.count
        let slots = workers.enumerated().map { index, worker in
            Slot<Worker, Result>(worker: worker, range: min(index * share, inputs.count)..<min((index + 1) * share, inputs.count))
        }
        withoutActuallyEscaping(body) { body in
            let box = Unchecked(body)
            DispatchQueue.concurrentPerform(iterations: slots.count) { index in
                let slot = slots[index]
                slot.result = box.value(slot.worker, inputs[slot.range])
            }
        }
        return slots.compactMap(\.result)
    }

    /// One worker, the inputs it answers and its result: touched by one thread at a time.
    private final class Slot<Worker, Result>: @unchecked Sendable {
        let worker: Worker
        let range: Range<Int>
        var result: Result?

        init(worker: Worker, range: Range<Int>) {
            self.worker = worker
            self.range = range
        }
    }

    private struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
