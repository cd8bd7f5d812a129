/// One stack of a report: a thread, or a titled stack ("freed by thread T0 here:").
public struct CrashThread: Hashable, Sendable {
    public var index: Int
    public var name: String?
    public var crashed: Bool
    public var frames: [CrashFrame]

    public init(index: Int, name: String?, crashed: Bool, frames: [CrashFrame]) {
        self.index = index
        self.name = name
        self.crashed = crashed
        self.frames = frames
    }
}
