import Dispatch
import Synchronization

/// Pieces of a large log parsed and made (symbolicated, printed) on other threads, at most ``ahead`` of them in work or
/// waiting beyond the one taken, and taken in order by the reader: parsing a piece and answering it cost more than
/// writing it, so both cores work on pieces while the reader hands them on.
final class PiecesAhead<Made: Sendable, Carried: Sendable>: Sendable {
    typealias Work = (consuming ParsedPiece, _ carriedIn: () -> Carried?) -> (Made, Carried)
    /// Threads working on pieces.
    static var threads: Int { 2 }
    /// Pieces in work or waiting that were not taken yet: memory follows it (a piece is a megabyte of text, more when
    /// a report runs past it).
    static var ahead: Int { 2 }
    private let results: Mutex<[Result<Made, CrashLogError>?]>
    private let finished: [DispatchSemaphore]
    /// What each piece's worker carried on from its last report, for a piece whose first report continues it.
    private let carried: Mutex<[Carried?]>
    private let carriedOut: [DispatchSemaphore]
    /// Made with no room and given ``ahead``: a semaphore freed below the value it was made with (a reader that
    /// stops early leaves it so) stops the process.
    private let room = DispatchSemaphore(value: 0)
    private let next = Mutex(0)
    private let cancelled = Atomic(false)

    init(
        count: Int, parse: @escaping @Sendable (Int) -> Result<ParsedPiece, CrashLogError>,
        makeWorker: @escaping @Sendable () -> Work
    ) {
        results = Mutex(Array(repeating: nil, count: count))
        finished = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        carried = Mutex(Array(repeating: nil, count: count))
        carriedOut = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        for _ in 0..<Self.ahead { room.signal() }
        for _ in 0..<Self.threads {
            DispatchQueue.global().async { [self] in
                let work = makeWorker()
                while true {
                    room.wait()
                    let number = next.withLock { next in
                        defer { next += 1 }
                        return next
                    }
                    guard number < count, !cancelled.load(ordering: .relaxed) else {
                        // A piece taken and left still says it carried nothing: the next one's worker may wait on it.
                        if number < count { carriedOut[number].signal() }
                        // The permit goes on to the other thread, to find the end too.
                        room.signal()
                        return
                    }
                    let result: Result<Made, CrashLogError>
                    switch parse(number) {
                    case .success(let piece):
                        let (made, out) = work(piece) { number == 0 ? nil : self.carried(by: number - 1) }
                        carried.withLock { $0[number] = out }
                        result = .success(made)
                    case .failure(let error):
                        result = .failure(error)
                    }
                    carriedOut[number].signal()
                    results.withLock { $0[number] = result }
                    finished[number].signal()
                }
            }
        }
    }

    /// What the worker of piece `number` carried on, waiting for it (the piece was taken before the asking one, so it
    /// is in work or done).
    private func carried(by number: Int) -> Carried? {
        carriedOut[number].wait()
        // Given back: asking again does not wait.
        carriedOut[number].signal()
        return carried.withLock { $0[number] }
    }

    /// What piece `number` was made into, waiting for it; makes room for the next.
    func take(_ number: Int) -> Result<Made, CrashLogError> {
        finished[number].wait()
        defer { room.signal() }
        return results.withLock { results in
            defer { results[number] = nil }
            return results[number]!
        }
    }

    /// Stops the work (the reader stopped taking pieces: an error, or the last was taken).
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        for _ in 0..<Self.threads { room.signal() }
    }
}
