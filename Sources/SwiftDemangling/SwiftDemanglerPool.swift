import Glibc
import Synchronization

/// Demanglers kept for the threads that demangle for one image (or one symbol file): each keeps its buffers from
/// one name to the next, so that a name costs no allocation but its result's.
///
/// A demangler never leaves its slot: it is used inside the slot's lock, so the compiler checks that no two threads
/// touch its buffers at once (moving it in and out of a shared list, as an earlier pool did, needed an unchecked
/// `Sendable` promise).
package final class SwiftDemanglerPool: Sendable {
    /// One demangler, made on first use, behind its own lock; a thread claims the slot first (`isClaimed`, in user
    /// space), so that the lock is never found taken: a thread that tries a lock another holds asks the kernel.
    private final class Slot: Sendable {
        let isClaimed = Atomic(false)
        let demangler = Mutex<SwiftSymbolDemangler?>(nil)
    }

    private let slots: [Slot]

    /// An empty pool of `count` slots: as many as threads demangle at once, in practice; a thread that finds every
    /// slot claimed (every one of none, for a pool of no slots) demangles with a demangler of its own, made for the
    /// name.
    package init(slots count: Int = 8) {
        slots = (0..<max(count, 0)).map { _ in Slot() }
    }

    /// `symbol` demangled in `style` by a demangler of the pool, or nil when it declines.
    package func demangle(_ symbol: String, style: SwiftSymbolDemangler.Style) -> String? {
        // A thread starts at the slot its id picks (the id's bits mixed: ids are addresses megabytes apart), so that it
        // mostly takes back the demangler it used last, whose buffers are likely still in its core's cache; a slot
        // another thread has claimed is passed over, not waited for.
        let first = Int(truncatingIfNeeded: (UInt64(pthread_self()) &* 0x9E37_79B9_7F4A_7C15) >> 61)
        for step in 0..<slots.count {
            let slot = slots[(first + step) % slots.count]
            guard slot.isClaimed.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
                continue
            }
            defer { slot.isClaimed.store(false, ordering: .releasing) }
            return slot.demangler.withLock { kept -> String? in
                if kept == nil { kept = SwiftSymbolDemangler() }
                return kept!.demangle(symbol, style: style)
            }
        }
        var own = SwiftSymbolDemangler()
        return own.demangle(symbol, style: style)
    }
}
