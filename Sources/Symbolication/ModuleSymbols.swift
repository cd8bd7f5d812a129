import CrashLogs
import PostmortemCore

/// What answers addresses of a module without its binary: a Breakpad symbol file, found by the module's name and debug
/// id. Addresses are offsets from the module's base (where it was loaded).
package protocol ModuleSymbols: AnyObject, Sendable {
    /// Where the answers come from (the symbol file's path).
    var path: String { get }
    /// What the module holds at `offset`: the inline chain innermost first, and the covering function or symbol.
    func resolve(_ offset: UInt64) -> AddressResolution
}

/// Finds the symbols of an image a log names whose binary is not found, by its name and identifier (build-id or UUID);
/// `nil` when there are none.
package typealias ModuleSymbolsLookup = @Sendable (_ image: CrashImage) -> (any ModuleSymbols)?
