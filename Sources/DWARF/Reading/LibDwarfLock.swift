import Synchronization

/// The one lock every call into libdwarf holds. libdwarf is not thread-safe, not even across separate
/// sessions (its Mach-O loader and its allocation switches are library-wide): two threads opening
/// dSYMs at once made one read garbage (`DW_DLE_ZDEBUG_INPUT_FORMAT_ODD`). Every libdwarf call in this
/// module runs inside ``run(_:)``; the rest of Postmortem may use threads freely.
enum LibDwarfLock {
    private static let mutex = Mutex(())

    /// Runs `body` while no other thread is in libdwarf. Not reentrant: `body` must not call `run` again.
    static func run<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        try mutex.withLock { _ throws(Failure) -> Value in try body() }
    }
}
