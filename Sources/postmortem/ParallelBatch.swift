import Dispatch

/// Shares a batch of inputs out among workers, one thread each, and gathers the outputs in input order.
///
/// Each worker (a symbolizer, which is not thread-safe) is used by exactly one thread while the batch
/// runs, and the inputs are split into contiguous halves; that is what makes the unchecked boxes below sound.
enum ParallelBatch {
    static func map<Worker, Output>(_ inputs: [String], workers: [Worker], _ transform: (Worker, String) -> Output) -> [Output] {
        guard workers.count > 1, inputs.count > 1 else { return inputs.map { transform(workers[0], $0) } }
        let share = (inputs.count + workers.count - 1) / workers.count
        let slots = workers.enumerated().map { index, worker in
            Slot<Worker, Output>(worker: worker, range: min(index * share, inputs.count)..<min((index + 1) * share, inputs.count))
        }
        withoutActuallyEscaping(transform) { transform in
            let box = Unchecked(transform)
            DispatchQueue.concurrentPerform(iterations: slots.count) { index in
                let slot = slots[index]
                slot.outputs = inputs[slot.range].map { box.value(slot.worker, $0) }
            }
        }
        return slots.flatMap(\.outputs)
    }

    /// One worker, the inputs it answers and its outputs: touched by one thread at a time.
    private final class Slot<Worker, Output>: @unchecked Sendable {
        let worker: Worker
        let range: Range<Int>
        var outputs: [Output] = []

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
