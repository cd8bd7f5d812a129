/// Swift string-literal spelling shared by the renderers.
enum SwiftLiteral {
    /// `"text"` with `\"`, `\\`, `\n`, `\t`, `\r` and `\u{…}` escapes, as `debugPrint` writes strings.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\0": result += "\\0"
            case _ where scalar.value < 0x20: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// The type's name as people write it: no module, generic arguments kept (`Box<Int>`).
    static func shortTypeName(_ typeName: String?) -> String {
        guard var typeName else { return "" }
        // Types declared inside functions or privately carry a context part: `M.(unknown context at $1f2e).Person`.
        for marker in ["(unknown context at ", "(private context at "] {
            while let start = typeName.firstRange(of: marker),
                let end = typeName[start.upperBound...].firstIndex(of: ")")
            {
                var after = typeName.index(after: end)
                if after < typeName.endIndex, typeName[after] == "." { after = typeName.index(after: after) }
                typeName.removeSubrange(start.lowerBound..<after)
            }
        }
        var result = ""
        var word = ""
        for character in typeName {
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                word.append(character)
            } else {
                result += word.split(separator: ".").last.map(String.init) ?? word
                word = ""
                result.append(character)
            }
        }
        return result + (word.split(separator: ".").last.map(String.init) ?? word)
    }
}

extension SwiftLiteral {
    /// The shortest spelling that reads back as the same double, as Swift prints it (`-1.25`, `1e-05`); whole
    /// numbers without the `.0` (`3`), so integers stored as reals read as integers.
    static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
