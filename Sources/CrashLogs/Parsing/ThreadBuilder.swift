/// Builds the threads of formats that announce each thread with a header line (`Thread 2:`, `* thread #1`).
struct ThreadBuilder {
    private(set) var current: CrashThread?

    var isOpen: Bool { current != nil }

    /// Ends the thread being built (kept when it has frames) and starts `thread`.
    mutating func begin(_ thread: CrashThread, into report: inout CrashReport) {
        close(into: &report)
        current = thread
    }

    mutating func append(_ frame: CrashFrame) {
        current?.frames.append(frame)
    }

    mutating func close(into report: inout CrashReport) {
        if let finished = current, !finished.frames.isEmpty { report.threads.append(finished) }
        current = nil
    }
}
