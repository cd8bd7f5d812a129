import Synchronization

/// Demanglers kept for the threads that demangle for one image (or one symbol file): each keeps its buffers from
/// one name to the next, so that a name costs no allocation but its result's.
package final class SwiftDemanglerPool: Sendable {
    /// As many as threads demangle at once, in practice; more are dropped rather than kept.
    private static let kept = 8
    private let idle = Mutex<[SwiftSymbolDemangler]>([])

    /// An empty pool.
    package init() {}

    /// `symbol` demangled in `style` by a demangler of the pool, or nil when it declines.
    package func demangle(_ symbol: String, style: SwiftSymbolDemangler.Style) -> String? {
        var demangler = idle.withLock { $0.popLast() } ?? SwiftSymbolDemangler()
        let name = demangler.demangle(symbol, style: style)
        idle.withLock { demanglers in
            if demanglers.count < Self.kept { demanglers.append(demangler) }
        }
        return name
    }
}
