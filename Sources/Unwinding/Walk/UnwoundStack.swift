import PostmortemCore

/// One frame an unwinder found.
package struct UnwoundFrame: Hashable, Sendable {
    /// The program counter of the first frame (and of a frame a signal interrupted), the return address of the others:
    /// as eu-stack and gdb print them.
    package var address: UInt64
    /// True when ``address`` is a return address, looked up one byte before it.
    package var isReturnAddress: Bool
    /// How the frame was found.
    package var trust: FrameTrust
    /// The frame's registers, as far as the walk knows them.
    package var registers: RegisterSet

    /// The address to look the frame's function and line up at.
    package var lookupAddress: UInt64 { isReturnAddress ? address &- 1 : address }
}

/// A thread's stack, innermost frame first, and why the walk ended where it did.
package struct UnwoundStack: Hashable, Sendable {
    /// The frames, innermost first.
    package var frames: [UnwoundFrame]
    /// Why the walk stopped before the outermost frame; `nil` when it reached it (the CFI marks it, or the return
    /// address is 0).
    package var stopReason: String?
}
