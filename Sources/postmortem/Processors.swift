#if canImport(Glibc)
    import Glibc
#endif

/// The machine's processors, as the command line spreads work over them.
enum Processors {
    /// How many processors are online.
    static var online: Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
