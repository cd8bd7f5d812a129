/// One stack of a report: a thread, or a titled stack ("freed by thread T0 here:").
public struct CrashThread: Hashable, Sendable {
    /// The thread's number as the log gives it (or its position when it gives none).
    public var index: Int
    /// The thread's header line as the log writes it, or its name; `nil` when it has none.
    public var name: String?
    /// Whether this is the thread that crashed.
    public var crashed: Bool
    /// The frames, innermost first.
    public var frames: [CrashFrame]
    /// For a stack Postmortem walked itself: why the walk stopped before the outermost frame; `nil` when it did not.
    public var stopReason: String?
    /// For a stack Postmortem walked itself: the registers of its innermost frame, by name, in the ABI's order.
    public var registers: [RegisterValue] = []

    /// A thread of `frames`.
    public init(index: Int, name: String?, crashed: Bool, frames: [CrashFrame]) {
        self.index = index
        self.name = name
        self.crashed = crashed
        self.frames = frames
    }
}

/// One register and its value, as a thread's innermost frame had it.
public struct RegisterValue: Hashable, Sendable {
    /// The register's name, as gdb and `readelf -wF` print it (`rip`, `x29`).
    public var name: String
    /// Its value.
    public var value: UInt64

    /// `name` holding `value`.
    public init(name: String, value: UInt64) {
        self.name = name
        self.value = value
    }
}
