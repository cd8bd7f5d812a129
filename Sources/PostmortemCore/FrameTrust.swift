/// How an unwinder found a frame, in rust-minidump's words: what a reader should believe of it.
public enum FrameTrust: String, Hashable, Sendable {
    /// From the registers the core or dump saved: the frame that was running.
    case context
    /// From the call-frame information of the caller's image: exact.
    case cfi
    /// From the frame-pointer chain, where no call-frame information covered the address: right when the code keeps
    /// frame pointers, and checked (inside the stack, returning into code).
    case framePointer = "frame-pointer"
    /// A Swift async function's caller, read from the chain of async contexts (each context's resume function), as
    /// the Swift runtime's backtracer rebuilds a task's logical stack; shown `[async]` there.
    case asyncContext = "async"
    /// Found by scanning the stack for a word that points into code: a guess, given only when asked for.
    case scan
}
