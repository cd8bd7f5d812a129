import Glibc
import Synchronization

/// Demanglers kept for the threads that demangle for one image (or one symbol file): each keeps its buffers from
/// one name to the next, so that a name costs no allocation but its result's.
package final class SwiftDemanglerPool: Sendable {
    /// As many as threads demangle at once, in practice; more are dropped rather than kept.
    private static let kept = 8
    /// Each idle demangler with the thread that used it last.
    private let idle = Mutex<[(thread: UInt, demangler: SwiftSymbolDemangler)]>([])

    /// An empty pool.
    package init() {}

    /// `symbol` demangled in `style` by a demangler of the pool, or nil when it declines.
    package func demangle(_ symbol: String, style: SwiftSymbolDemangler.Style) -> String? {
        // A thread takes back the demangler it used last, whose buffers are likely still in its core's cache (another
        // thread's would move across cores line by line). Moved in and out of the pool, never copied: a copy retains,
        // and its end releases, each of the demangler's buffers.
        let thread = pthread_self()
        var demangler =
            idle.withLock { idle in
                (idle.lastIndex { $0.thread == thread } ?? idle.indices.last).map { idle.remove(at: $0).demangler }
            } ?? SwiftSymbolDemangler()
        let name = demangler.demangle(symbol, style: style)
        var returned = Optional(consume demangler)
        idle.withLock { idle in
            if idle.count < Self.kept, let demangler = returned.take() { idle.append((thread, demangler)) }
        }
        return name
    }
}
