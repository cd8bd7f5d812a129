/// Drops the return type a C++ demangler writes before a function template's name (`bool std::operator< <char>(…)`
/// becomes `std::operator< <char>(…)`): Breakpad symbol files name functions without it, as Mozilla's dump_syms does.
enum CxxReturnType {
    /// `demangled` without its leading return type; unchanged when it has none (or has a shape not understood).
    static func dropped(from demangled: String) -> String {
        let text = Array(demangled.utf8)
        guard let parameters = parameterListStart(text), let nameStart = nameStart(text, before: parameters),
            nameStart > 0
        else {
            return demangled
        }
        return String(decoding: text[nameStart...], as: UTF8.self)
    }

    private static let qualifiers: [[UInt8]] = [" const", " volatile", " &&", " &"].map { Array($0.utf8) }

    /// Where the parameter list opens: the `(` matching the last `)`, once trailing qualifiers are set aside.
    private static func parameterListStart(_ text: [UInt8]) -> Int? {
        var end = text.count
        var stripped = true
        while stripped {
            stripped = false
            for qualifier in qualifiers
            where end >= qualifier.count && Array(text[(end - qualifier.count)..<end]) == qualifier {
                end -= qualifier.count
                stripped = true
            }
        }
        guard end > 0, text[end - 1] == UInt8(ascii: ")") else { return nil }
        var depth = 0
        var index = end - 1
        while index >= 0 {
            switch text[index] {
            case UInt8(ascii: ")"): depth += 1
            case UInt8(ascii: "("):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index -= 1
        }
        return nil
    }

    /// Where the qualified name before `end` starts: after the last space outside brackets, read from the start up to
    /// the name's `operator` if it has one (whose characters are not brackets); `nil` when there is no such space (no
    /// return type). A space after `)` is the one before a member of a function's local class (`f() const::{lambda…}`).
    private static func nameStart(_ text: [UInt8], before end: Int) -> Int? {
        var depth = 0
        var lastSpace: Int?
        var index = 0
        while index < end {
            let byte = text[index]
            if depth == 0, isOperatorWord(text, at: index) { break }
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: " ") where depth == 0 && index > 0 && text[index - 1] != UInt8(ascii: ")"):
                lastSpace = index
            default: break
            }
            index += 1
        }
        return lastSpace.map { $0 + 1 }
    }

    private static let operatorWord = Array("operator".utf8)

    /// Whether the word `operator` starts at `index` (at the start of a name segment).
    private static func isOperatorWord(_ text: [UInt8], at index: Int) -> Bool {
        guard index + operatorWord.count <= text.count, text[index] == UInt8(ascii: "o"),
            index == 0 || text[index - 1] == UInt8(ascii: ":") || text[index - 1] == UInt8(ascii: " ")
        else { return false }
        return Array(text[index..<(index + operatorWord.count)]) == operatorWord
    }
}
