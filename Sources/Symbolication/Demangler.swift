internal import CDemangle
import Glibc
internal import SwiftDemangling

/// Turns linkage names into the names people read: Swift through a demangler of our own (the runtime's
/// `swift_demangle` for the manglings it declines), C++ through `__cxa_demangle`. Other names (C) are already readable
/// and pass through.
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
    /// Demanglers with their buffers, shared by the threads demangling for one image; nil: one made for each name.
    private let pool: SwiftDemanglerPool?

    /// A demangler showing Swift names in `style` (everything, by default).
    public init(style: Style = .full) {
        self.style = style
        pool = nil
    }

    /// A demangler showing Swift names in `style`, with the buffers of `pool`.
    init(style: Style, pool: SwiftDemanglerPool) {
        self.style = style
        self.pool = pool
    }

    /// A demangler showing Swift names in `style` whose copies, on any thread, share one pool of buffers: for
    /// whoever demangles many names.
    package static func sharingBuffers(style: Style) -> Demangler {
        Demangler(style: style, pool: SwiftDemanglerPool())
    }

    /// The demangled form of `linkageName`, or `linkageName` itself when it is not mangled
    /// (or is mangled in a way the demanglers reject).
    public func demangle(_ linkageName: String) -> String {
        if Self.isSwift(linkageName) {
            // Ours first, in every style: it prints what it reads exactly as the runtime does (the tests hold it to the
            // runtime on every Swift function of the toolchain's libraries and the fixtures) and is faster than the
            // runtime's, which keeps no buffers between names. It declines the rare manglings it does not
            // read (a few in a hundred), which go to the runtime. The form with parameter types only ours prints.
            // Without a pool of its own (``sharingBuffers(style:)``), a demangler gets buffers for the one name.
            let ours: SwiftSymbolDemangler.Style =
                switch style {
                case .full: .full
                case .simplified: .simplified
                case .withParameterTypes: .simplifiedWithParameterTypes
                }
            // The pool through optional chaining: bound to a name, it is counted once more, a count both threads write.
            let name =
                pool != nil
                ? pool?.demangle(linkageName, style: ours) : SwiftDemanglerPool().demangle(linkageName, style: ours)
            if let name { return name }
            return Self.runtimeDemangled(linkageName, style: style)
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

    /// `linkageName` as the Swift runtime's demangler shows it in `style` (simplified for
    /// ``Style/withParameterTypes``, a form the runtime does not have), or `linkageName` itself when it rejects it:
    /// the oracle our own demangler is tested against.
    package static func runtimeDemangled(_ linkageName: String, style: Style) -> String {
        linkageName.withCString { name in
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
