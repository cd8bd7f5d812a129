import CrashLogs

/// Turns a function name into the form signatures compare, so that the same function is named alike whoever named
/// it (a debugger, the C library, a sanitizer, our symbolicator) and whichever build it came from:
/// - C++: template arguments become `<T>`, the argument list and its qualifiers (`const`, `&`, `noexcept`) go;
/// - compiler clones (`.cold`, `.isra.0`, `.constprop.1`, `.part.0`, `.lto_priv.0`, `.localalias`, `[clone .cold]`) go;
/// - glibc's internal aliases (`__GI_raise`) and sanitizer interceptors (`__interceptor_free`) take the public name;
/// - Swift: generic specialisations are named as the generic function; argument labels (`restock(_:names:)`) and
///   closure numbers (`closure #1 in …`) stay, since they tell overloads and closures apart and do not change
///   between builds of the same code.
package enum FunctionNameNormalizer {
    /// `name` in the form signatures compare.
    package static func normalize(_ name: String) -> String {
        var text = Substring(name.trimmingBlanks)
        // `<signal handler called>`, `<unavailable>`: a producer's word for a frame, not a name.
        if text.first == "<" { return String(text) }
        text = droppingCloneSuffixes(text)
        // libc++'s ABI tags (`operator[][abi:se180100]`) change with the library's version, not the code.
        while let tag = text.firstByteRange(of: "[abi:"), let end = text[tag.upperBound...].firstIndex(of: "]") {
            text = text[..<tag.lowerBound] + text[text.index(after: end)...]
        }
        // Some iOS reports write `-[NSObject+ 1045168 (NSObject) doesNotRecognizeSelector:]`: the offset is not the name's.
        if text.hasPrefix("-[") || text.hasPrefix("+["), let plus = text.firstByteRange(of: "+ "),
            plus.lowerBound > text.index(text.startIndex, offsetBy: 2)
        {
            let digits = text[plus.upperBound...].prefix(while: \.isNumber)
            if !digits.isEmpty, text[plus.upperBound...].dropFirst(digits.count).hasPrefix(" ") {
                text = text[..<plus.lowerBound] + text[text.index(plus.upperBound, offsetBy: digits.count + 1)...]
            }
        }
        text = SwiftFullName.withoutWrappers(text)
        if SwiftFullName.isFull(text) { text = Substring(SwiftFullName.simplify(text)) }
        for prefix in ["__GI___libc_", "__GI_", "___interceptor_", "__interceptor_"] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
            break
        }
        if let base = stringFunction(ofVariant: text) { return base }
        if isSwiftName(text) { return String(text) }
        return cxxShape(text)
    }

    /// glibc picks a string function's code for the processor it runs on (`__strlen_evex`, `__strlen_avx2`,
    /// `__memmove_avx_unaligned_erms`), and calls some by an internal name (`__strdup`): the same crash on another
    /// machine, or named by another tool, shows another name. The function it is.
    static func stringFunction(ofVariant name: Substring) -> String? {
        guard name.hasPrefix("__") else { return nil }
        let words = name.dropFirst(2).split(separator: "_", omittingEmptySubsequences: false)
        guard let base = words.first, stringFunctions.contains(base),
            words.dropFirst().allSatisfy(variantWords.contains)
        else { return nil }
        return String(base)
    }

    private static let stringFunctions: Set<Substring> = [
        "memcpy", "mempcpy", "memmove", "memset", "memcmp", "memchr", "memrchr", "rawmemchr", "strlen", "strnlen",
        "strcmp",
        "strncmp", "strcasecmp", "strncasecmp", "strcpy", "strncpy", "stpcpy", "stpncpy", "strcat", "strncat", "strchr",
        "strchrnul", "strrchr", "strstr", "strdup", "strndup", "strspn", "strcspn", "strpbrk", "wcslen", "wcsnlen",
        "wcscpy", "wcscmp", "wcschr",
        "wmemcpy", "wmemset", "wmemchr", "wmemcmp", "bzero"
    ]

    /// The words glibc's variants are named with (`sse2`, `avx2`, `evex`, `unaligned`, `erms`, …).
    private static let variantWords: Set<Substring> = [
        "sse2", "sse4", "1", "2", "ssse3", "avx", "avx2", "avx512", "avx512f", "avx512bw", "evex", "evex512", "erms",
        "unaligned", "aligned", "rtm", "vex", "back", "no", "vzeroupper", "generic", "ia32", "chk", "nonshared"
    ]

    /// `foo.cold.1`, `foo.isra.0.constprop.2`, `foo [clone .cold]`: the function they were cloned from.
    static func droppingCloneSuffixes(_ name: Substring) -> Substring {
        var text = name
        while let range = text.firstByteRange(of: " [clone ") {
            guard let end = text[range.upperBound...].firstIndex(of: "]") else { break }
            text = text[..<range.lowerBound] + text[text.index(after: end)...]
        }
        let clones: Set<Substring> = [
            "cold", "isra", "constprop", "part", "lto_priv", "localalias", "llvm", "warm", "hot"
        ]
        // From the end: `.digits` and clone words, as long as each part is one.
        var cut = text.endIndex
        var scan = text[...]
        while let dot = scan.lastIndex(of: ".") {
            let part = scan[scan.index(after: dot)...]
            guard !part.isEmpty, part.allSatisfy(\.isNumber) || clones.contains(part) else { break }
            guard dot > scan.startIndex else { break }
            cut = dot
            scan = scan[..<dot]
        }
        // Digits alone after a dot are no clone: a clone word must be among the parts cut.
        let removed = text[cut...]
        if removed.split(separator: ".").contains(where: { clones.contains($0) }) { return text[..<cut] }
        return text
    }

    /// A Swift name as our symbolicator and the runtime's backtracer print it: the argument part holds only labels
    /// (`(_:names:)`, `()`), or the name carries Swift's own words (`closure #1 in`, `partial apply for`).
    static func isSwiftName(_ name: Substring) -> Bool {
        if name.includes("closure #") || name.hasPrefix("partial apply for ")
            || name.hasPrefix("reabstraction thunk") || name.includes(".getter") || name.includes(".setter")
            || name.includes(".modify")
        {
            return true
        }
        guard name.last == ")", let open = name.lastIndex(of: "(") else { return false }
        let labels = name[name.index(after: open)..<name.index(before: name.endIndex)]
        return !labels.isEmpty && labels.last == ":"
            && labels.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }
    }

    /// C++'s shape of a name: `<T>` for every template argument list, no argument list, no qualifiers after it.
    static func cxxShape(_ name: Substring) -> String {
        var result = ""
        var index = name.startIndex
        var depth = 0
        while index < name.endIndex {
            let character = name[index]
            // `operator<`, `operator<<`, `operator()`, `operator->`: the operator's characters are part of the name.
            if depth == 0, name[index...].hasPrefix("operator"),
                !(result.last.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false)
            {
                var end = name.index(index, offsetBy: 8)
                result += "operator"
                if end < name.endIndex, name[end...].hasPrefix("()") {
                    result += "()"
                    end = name.index(end, offsetBy: 2)
                } else {
                    while end < name.endIndex, "<>=!+-*/%^&|~[],".contains(name[end]) {
                        result.append(name[end])
                        end = name.index(after: end)
                    }
                }
                index = end
                continue
            }
            switch character {
            case "<":
                if depth == 0 { result += "<T>" }
                depth += 1
            case ">":
                if depth > 0 { depth -= 1 } else { result.append(character) }
            case "{":
                // `{lambda(int)#1}`: copied whole, it names the lambda.
                guard depth == 0, let end = name[index...].firstIndex(of: "}") else { break }
                result += name[index...end]
                index = name.index(after: end)
                continue
            default:
                if depth == 0 { result.append(character) }
            }
            index = name.index(after: index)
        }
        return droppingArgumentList(result)
    }

    /// A C++ name's scope and its own name: `worker::detail::compute` → (`worker::detail`, `compute`); `nil` for a name
    /// in no scope. `::` inside brackets (`{lambda(std::string)#1}`, `(anonymous namespace)`) is no separator.
    package static func scope(of name: String) -> (scope: Substring, name: Substring)? {
        // Over the bytes (every delimiter is ASCII): asked of every inlined frame of every crash, with C++ names of
        // hundreds of characters, where walking characters cost tens of thousands of instructions a name.
        let bytes = name.utf8.span
        var depth = 0
        var separator: Int?
        var offset = 0
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "("), UInt8(ascii: "<"), UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: ">"), UInt8(ascii: "}"), UInt8(ascii: "]"): depth = max(0, depth - 1)
            case UInt8(ascii: ":")
            where depth == 0 && offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: ":"):
                separator = offset
                offset += 2
                continue
            default: break
            }
            offset += 1
        }
        guard let separator, separator > 0, separator + 2 < bytes.count else { return nil }
        let utf8 = name.utf8
        let cut = utf8.index(utf8.startIndex, offsetBy: separator)
        return (Substring(utf8[..<cut]), Substring(utf8[utf8.index(cut, offsetBy: 2)...]))
    }

    /// `ns::f(int, char const*) const` → `ns::f`; `(anonymous namespace)::g()` → `(anonymous namespace)::g`.
    static func droppingArgumentList(_ name: String) -> String {
        var text = Substring(name)
        for qualifier in [" const", " volatile", " &&", " &", " noexcept"] {
            while text.hasSuffix(qualifier) { text = text.dropLast(qualifier.count) }
        }
        guard text.last == ")" else { return String(text) }
        var depth = 0
        var index = text.index(before: text.endIndex)
        while true {
            if text[index] == ")" { depth += 1 }
            if text[index] == "(" {
                depth -= 1
                if depth == 0 { break }
            }
            guard index > text.startIndex else { return String(text) }
            index = text.index(before: index)
        }
        // `operator()(int)`: the list is the second pair; `operator()` alone is the name.
        let head = text[..<index]
        return head.isEmpty || head.hasSuffix("operator") ? String(text) : String(head)
    }
}

extension String {
    var trimmingBlanks: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
