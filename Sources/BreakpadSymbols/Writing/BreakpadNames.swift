import Symbolication

/// Names as Breakpad symbol files show them: compiler suffixes of split and cloned functions removed (`.cold`,
/// `.constprop.0`, ` [clone .isra.0]`), then demangled, C++ with its parameters and without its return type.
struct BreakpadNames: Sendable {
    private let demangler = Demangler.sharingBuffers(style: .withParameterTypes)

    /// The name shown for `stored`, a name as a symbol table or the debug information stores it.
    func displayName(_ stored: String) -> String {
        let fixed = Self.withoutCompilerSuffixes(stored)
        var demangled = demangler.demangle(fixed)
        if fixed.hasPrefix("_Z"), demangled != fixed { demangled = CxxReturnType.dropped(from: demangled) }
        guard demangled.utf8.contains(UInt8(ascii: "`")) else { return demangled }
        return demangled.replacing("`anonymous namespace'", with: "(anonymous namespace)")
    }

    /// Symbols the writer leaves out: Windows string and floating-point constants.
    static func isConstant(_ name: String) -> Bool {
        name.hasPrefix("??_C") || name.hasPrefix("__real@") || name.hasPrefix("__xmm@") || name.hasPrefix("__ymm@")
    }

    private static let cloneKinds: Set<Substring> = [
        "cold", "constprop", "llvm", "localalias", "lto_priv", "isra", "part", "str"
    ]

    /// `name` without the suffixes compilers add to the copies they make of a function, as dump_syms removes them.
    static func withoutCompilerSuffixes(_ name: String) -> String {
        // Most names carry no suffix: one without `.` or `]` is left as it is without looking further.
        guard name.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "]") }) else { return name }
        var text = Substring(name)
        while true {
            if let clone = Self.cloneSuffixStart(text) {
                text = text[..<clone]
                continue
            }
            guard let dot = text.lastIndex(of: ".") else { break }
            let last = text[text.index(after: dot)...]
            if Self.cloneKinds.contains(last) {
                text = text[..<dot]
                continue
            }
            if !last.isEmpty, last.allSatisfy(\.isASCIIDigit), let kindDot = text[..<dot].lastIndex(of: "."),
                Self.cloneKinds.contains(text[text.index(after: kindDot)..<dot])
            {
                text = text[..<kindDot]
                continue
            }
            break
        }
        return String(text)
    }
}

extension BreakpadNames {
    /// Where a trailing ` [clone .name]` (spaces optional) starts in `text`, if it ends with one.
    private static func cloneSuffixStart(_ text: Substring) -> Substring.Index? {
        var body = text
        if body.hasSuffix(" ") { body = body.dropLast() }
        guard body.hasSuffix("]"), let open = body.lastIndex(of: "["), body[open...].hasPrefix("[clone"),
            !body[open...].dropLast().contains("]")
        else { return nil }
        var start = open
        if start > body.startIndex, body[body.index(before: start)] == " " { start = body.index(before: start) }
        return start
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
