import Synchronization

/// The lock that opening and closing a libdwarf session holds. libdwarf keeps library-wide state only
/// there: its allocation switch, and the list of errors raised before a session exists (which
/// `dwarf_finish` empties). Reading through an open session touches that session alone, so sessions
/// read on separate threads at once, each under its own ``DebugHandle/run(_:)``.
///
/// (libdwarf's own loaders, `dwarf_init_path`, are not used: their Mach-O reader made two threads opening
/// dSYMs at once read garbage.)
enum LibDwarfLock {
    private static let mutex = Mutex(())

    /// Runs `body` while no other thread opens or closes a session. Not reentrant: `body` must not call `run` again.
    static func run<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        try mutex.withLock { _ throws(Failure) -> Value in try body() }
    }
}
