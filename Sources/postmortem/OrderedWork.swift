import Dispatch
import Synchronization

/// Items worked on by several threads at once, each result handed back on the calling thread in the items' order as
/// soon as it and every one before it are done. At most `window` items are in work or waiting to be handed back, so
/// memory stays flat however many items there are; an item whose turn has come (every one before it handed back) may
/// write its output itself as it goes (``Turn``), so one huge item is not held whole either.
enum OrderedWork {
    /// Whether an item's turn has come: every item before it handed back, so that it may write what it has so far and
    /// the rest as it comes, nothing else being written meanwhile. Used on the thread that works on the item.
    struct Turn {
        fileprivate let index: Int
        fileprivate let handedBack: (@Sendable () -> Int)?
        /// For an item of the calling thread's: hands back the results before it that are ready (nothing else would
        /// while the calling thread works on it, and a huge log would then be held whole until its end).
        fileprivate let catchUp: (() -> Void)?

        /// True once every item before this one has been handed back (always, on one thread).
        var hasCome: Bool {
            catchUp?()
            return handedBack.map { $0() == index } ?? true
        }
    }

    /// Works on items `0..<count` with `workers` threads, the calling thread one of them: each thread makes its own
    /// worker (`makeWorker`, called on that thread, so the worker's state is never shared) and calls it with the items
    /// it takes, in increasing order; `deliver` gets every result on the calling thread, in item order, between the
    /// items that thread works on. With one worker, no thread is started.
    static func run<Result: Sendable>(
        count: Int, workers: Int, window: Int,
        makeWorker: @escaping @Sendable () -> (Int, Turn) -> Result,
        deliver: (Result) -> Void
    ) {
        guard count > 0 else { return }
        let threads = max(1, min(workers, count))
        guard threads > 1 else {
            let work = makeWorker()
            for index in 0..<count { deliver(work(index, Turn(index: index, handedBack: nil, catchUp: nil))) }
            return
        }
        let shared = Shared<Result>(window: max(window, threads))
        let handedBack: @Sendable () -> Int = { shared.handedBack.withLock { $0 } }
        let group = DispatchGroup()
        for _ in 1..<threads {
            DispatchQueue.global().async(group: group) {
                let work = makeWorker()
                while true {
                    shared.room.wait()
                    guard let index = shared.take(below: count) else { return }
                    let result = work(index, Turn(index: index, handedBack: handedBack, catchUp: nil))
                    shared.results.withLock { $0[index] = result }
                    shared.ready.signal()
                }
            }
        }
        // The calling thread works too, handing back what is ready between its items (and, for a huge item, between
        // its reports: ``Turn``): a thread of its own that only handed back would be woken for every item, taking a
        // core from the workers each time.
        let work = makeWorker()
        withoutActuallyEscaping(deliver) { deliver in
            var delivered = 0
            var itemsLeft = true
            func handBack(_ result: Result) {
                deliver(result)
                delivered += 1
                // Only now may the next item write itself: nothing of the one before is left to write.
                shared.handedBack.withLock { $0 = delivered }
                shared.room.signal()
            }
            func handBackReady() {
                while let result = shared.results.withLock({ $0.removeValue(forKey: delivered) }) { handBack(result) }
            }
            while delivered < count {
                handBackReady()
                guard delivered < count else { break }
                if itemsLeft, shared.room.wait(timeout: .now()) == .success {
                    guard let index = shared.take(below: count) else {
                        itemsLeft = false
                        continue
                    }
                    let result = work(index, Turn(index: index, handedBack: handedBack, catchUp: handBackReady))
                    if index == delivered {
                        handBack(result)
                    } else {
                        shared.results.withLock { $0[index] = result }
                    }
                    continue
                }
                // Nothing to take (every item taken, or as many in work and waiting as the window holds): the next
                // result is another thread's to finish.
                shared.ready.wait()
            }
        }
        group.wait()
    }

    /// What the workers and the caller share: the next item to take, the results not handed back yet, and the
    /// semaphores that bound them.
    private final class Shared<Result: Sendable>: Sendable {
        let next = Mutex(0)
        /// How many items have been handed back: the index of the item whose turn it is.
        let handedBack = Mutex(0)
        let results = Mutex<[Int: Result]>([:])
        /// Signalled once per result a thread other than the caller stores.
        let ready = DispatchSemaphore(value: 0)
        /// One permit per item that may be in work or waiting; given back as each is handed back.
        let room: DispatchSemaphore

        init(window: Int) { room = DispatchSemaphore(value: window) }

        /// The next item to work on, once a permit of ``room`` is held; `nil` (the permit given back, for the other
        /// threads to find the end too) when every item is taken.
        func take(below count: Int) -> Int? {
            let index = next.withLock { next in
                defer { next += 1 }
                return next
            }
            guard index < count else {
                room.signal()
                return nil
            }
            return index
        }
    }
}
