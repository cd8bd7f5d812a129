/// Gathers runs of frame lines into stacks, each titled by the last text line before it.
struct StackCollector {
    private var frames: [CrashFrame] = []
    private var title: String?
    private var lastText: String?

    var current: [CrashFrame] { frames }

    /// A line of text that is not a frame: it may title the next stack, without its blanks. (Trimmed only when it
    /// does: every line of a log that is no frame is noted.)
    mutating func noteText(_ text: String) {
        if !text.isBlankLine { lastText = text }
    }

    mutating func append(_ frame: CrashFrame) {
        if frames.isEmpty { title = lastText?.trimmingWhitespace }
        frames.append(frame)
    }

    /// Ends the stack being gathered, as a thread of `report` (the first one is the crashed one).
    mutating func close(into report: inout CrashReport) {
        guard !frames.isEmpty else { return }
        report.threads.append(
            CrashThread(index: report.threads.count, name: title, crashed: report.threads.isEmpty, frames: frames))
        frames = []
    }
}
