public import CrashLogs

/// One frame of the answer for an address: a function and where in its source the address lies.
/// Frames come innermost first; all but the last are inlined into the one after them. The same value
/// fills the frames of crash reports, so it is the crash-log model's ``FrameSymbol``.
public typealias SymbolicatedFrame = FrameSymbol
