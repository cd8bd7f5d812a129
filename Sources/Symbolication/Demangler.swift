internal import CDemangle
import Glibc

/// Turns linkage names into the names people read: Swift through the runtime's `swift_demangle`,
/// C++ through `__cxa_demangle`. Other names (C) are already readable and pass through.
public struct Demangler: Sendable {
    public init() {}

    /// The demangled form of `linkageName`, or `linkageName` itself when it is not mangled
    /// (or is mangled in a way the demanglers reject).
    public func demangle(_ linkageName: String) -> String {
        if Self.isSwift(linkageName) {
            return linkageName.withCString { name in
                guard let result = postmortem_demangle_swift(name, strlen(name)) else { return linkageName }
                defer { free(result) }
                return String(cString: result)
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

    /// Swift 4 and later (`$s`, `$S`, `_$s`), embedded Swift (`$e`) and Swift 3 (`_T`) manglings.
    static func isSwift(_ name: String) -> Bool {
        name.hasPrefix("$s") || name.hasPrefix("$S") || name.hasPrefix("_$s") || name.hasPrefix("_$S")
            || name.hasPrefix("$e") || name.hasPrefix("_T0") || name.hasPrefix("_TF")
    }
}
