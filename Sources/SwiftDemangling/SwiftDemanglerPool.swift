import Glibc
import Synchronization

/// Demanglers kept for the threads that demangle for one image (or one symbol file): each keeps its buffers from
/// one name to the next, so that a name costs no allocation but its result's.
///
/// A demangler never leaves its slot: it is used inside the slot's lock, so the compiler checks that no two threads
/// touch its buffers at once (moving it in and out of a shared list, as an earlier pool did, needed an unchecked
/// `Sendable` promise).
package final class SwiftDemanglerPool: Sendable {
    /// One demangler, made on first use, behind its own lock.
    private final class Slot: Sendable {
        let demangler = Mutex<SwiftSymbolDemangler?>(nil)
    }

    /// As many as threads demangle at once, in practice; a thread that finds every slot busy demangles with a
    /// demangler of its own, made for the name.
    private static let slotCount = 8
    private let slots: [Slot]

    /// An empty pool.
    package init() {
        slots = (0..<Self.slotCount).map { _ in Slot() }
    }

    /// `symbol` demangled in `style` by a demangler of the pool, or nil when it declines.
    package func demangle(_ symbol: String, style: SwiftSymbolDemangler.Style) -> String? {
        // A thread starts at the slot its id picks (the id's bits mixed: ids are addresses some megabytes apart), so that it mostly takes back the demangler it used last, whose
        // buffers are likely still in its core's cache; a slot another thread holds is passed over, not waited for.
        let first = Int(truncatingIfNeeded: (UInt64(pthread_self()) &* 0x9E37_79B9_7F4A_7C15) >> 61)
        for step in 0..<Self.slotCount {
            let slot = slots[(first &+ step) & (Self.slotCount - 1)]
            let answer = slot.demangler.withLockIfAvailable { kept -> String? in
                if kept == nil { kept = SwiftSymbolDemangler() }
                return kept!.demangle(symbol, style: style)
            }
            if let answer { return answer }
        }
        var own = SwiftSymbolDemangler()
        return own.demangle(symbol, style: style)
    }
}
