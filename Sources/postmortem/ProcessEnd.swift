import Glibc

/// Ends the process once a command's work is done and written, without freeing what it built.
enum ProcessEnd {
    /// Flushes standard output and exits with status 0, leaving `objects` (symbolizers: their units,
    /// symbol tables and mapped files) to the end of the process instead of freeing them one by one,
    /// which after a large batch takes longer than some lookups (as compilers skip freeing before exit).
    /// Only for the last statement of a command's `run()`.
    static func exitWithoutTeardown(keeping objects: AnyObject?...) -> Never {
        withExtendedLifetime(objects) {
            Output.flush()
            exit(0)
        }
    }
}
