import Glibc

/// The machine's processors, as the command line and the server spread work over them.
package enum Processors {
    /// How many processors are online.
    package static var online: Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
