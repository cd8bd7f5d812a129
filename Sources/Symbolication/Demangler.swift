internal import CDemangle
import Glibc
internal import SwiftDemangling

/// Turns linkage names into the names people read: Swift through a demangler of our own for the simplified forms
/// (the runtime's `swift_demangle` for what it declines, and for full names), C++ through `__cxa_demangle`. Other
/// names (C) are already readable and pass through.
public struct Demangler: Sendable {
    /// How much of a Swift name to show.
    public enum Style: Hashable, Sendable {
        /// Everything: modules, argument types, result types
        /// (`closure #1 (Swift.Int) -> Swift.Int in inventory.restock(_: inout inventory.Inventory) -> Swift.Int`).
        case full
        /// As the Swift runtime's backtracer and atos show it: `closure #1 in restock(_:)`.
        case simplified
        /// The simplified form with the parameters' types and without result types
        /// (`closure #1 (Int) in restock(_: inout Inventory)`), as Breakpad symbol files written by Mozilla's
        /// dump_syms show Swift names. A name our demangler declines is shown simplified.
        case withParameterTypes
    }

    /// How much of a Swift name ``demangle(_:)`` shows.
    public var style: Style

    /// A demangler showing Swift names in `style` (everything, by default).
    public init(style: Style = .full) {
        self.style = style
    }

    /// The demangled form of `linkageName`, or `linkageName` itself when it is not mangled
    /// (or is mangled in a way the demanglers reject).
    public func demangle(_ linkageName: String) -> String {
        if Self.isSwift(linkageName) {
            if style != .full {
                var swiftDemangler = SwiftSymbolDemangler()
                let ownStyle: SwiftSymbolDemangler.Style =
                    style == .simplified ? .simplified : .simplifiedWithParameterTypes
                if let name = swiftDemangler.demangle(linkageName, style: ownStyle) { return name }
            }
            return linkageName.withCString { name in
                let demangled =
                    style == .full
                    ? postmortem_demangle_swift(name, strlen(name))
                    : postmortem_demangle_swift_simplified(name, strlen(name))
                guard let result = demangled else { return linkageName }
                defer { free(result) }
                let text = String(cString: result)
                return text.isEmpty ? linkageName : text
            }
        }
        if linkageName.hasPrefix("_Z") {
            return linkageName.withCString { name in
                guard let result = postmortem_demangle_cxx(name) else { return linkageName }
                defer { free(result) }
                return String(cString: result)
            }
        }
        return linkageName
    }

    /// Whether `linkageName` is a Swift thunk (reabstraction, partial application, protocol witness, …), as the
    /// runtime's backtracer tags them `[thunk]`.
    public static func isThunk(_ linkageName: String) -> Bool {
        isSwift(linkageName) && linkageName.withCString { postmortem_swift_is_thunk($0) }
    }

    /// Swift 4 and later (`$s`, `$S`, `_$s`), embedded Swift (`$e`) and Swift 3 (`_T`) manglings.
    public static func isSwift(_ name: String) -> Bool {
        name.hasPrefix("$s") || name.hasPrefix("$S") || name.hasPrefix("_$s") || name.hasPrefix("_$S")
            || name.hasPrefix("$e") || name.hasPrefix("_T0") || name.hasPrefix("_TF")
    }
}
