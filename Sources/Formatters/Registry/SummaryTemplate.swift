/// An lldb summary string: text with `${var…}` placeholders, such as `"${var.name} (${var.age})"`,
/// `${var.items[0]}`, `${var.count%x}`, `${var%#}` (child count), `${var%T}` (type name).
public struct SummaryTemplate: Hashable, Sendable {
    enum Step: Hashable, Sendable {
        case member(String)
        case index(Int)
    }

    enum Segment: Hashable, Sendable {
        case text(String)
        case variable(path: [Step], format: String?)
    }

    let segments: [Segment]
    /// The summary string as written.
    public let source: String

    /// Parses a summary string. Text outside `${…}` is kept; `\$`, `\{`, `\}` escape those characters.
    public init(_ source: String) throws(TemplateError) {
        self.source = source
        var segments: [Segment] = []
        var text = ""
        var characters = Substring(source)
        while let character = characters.first {
            if character == "\\", characters.count > 1 {
                text.append(characters.dropFirst().first!)
                characters = characters.dropFirst(2)
                continue
            }
            guard character == "$", characters.dropFirst().first == "{" else {
                text.append(character)
                characters = characters.dropFirst()
                continue
            }
            guard let close = characters.firstIndex(of: "}") else {
                throw TemplateError(template: source, reason: "a `${` is not closed")
            }
            let inside = characters[characters.index(characters.startIndex, offsetBy: 2)..<close]
            if !text.isEmpty { segments.append(.text(text)); text = "" }
            segments.append(try Self.variable(String(inside), template: source))
            characters = characters[characters.index(after: close)...]
        }
        if !text.isEmpty { segments.append(.text(text)) }
        self.segments = segments
    }

    private static func variable(_ text: String, template: String) throws(TemplateError) -> Segment {
        var path = text
        var format: String?
        if let percent = path.firstIndex(of: "%") {
            format = String(path[path.index(after: percent)...])
            path = String(path[..<percent])
        }
        guard path == "var" || path.hasPrefix("var.") || path.hasPrefix("var[") || path.hasPrefix("var->") else {
            throw TemplateError(template: template, reason: "`${\(text)}` does not start with `var`")
        }
        var steps: [Step] = []
        var rest = Substring(path.dropFirst(3))
        while let first = rest.first {
            if first == "." || rest.hasPrefix("->") {
                rest = rest.dropFirst(first == "." ? 1 : 2)
                let name = rest.prefix { $0 != "." && $0 != "[" && $0 != "-" }
                guard !name.isEmpty else {
                    throw TemplateError(template: template, reason: "an empty member name in `${\(text)}`")
                }
                steps.append(.member(String(name)))
                rest = rest.dropFirst(name.count)
            } else if first == "[" {
                guard let close = rest.firstIndex(of: "]"),
                    let index = Int(rest[rest.index(after: rest.startIndex)..<close])
                else {
                    throw TemplateError(template: template, reason: "a bad index in `${\(text)}`")
                }
                steps.append(.index(index))
                rest = rest[rest.index(after: close)...]
            } else {
                throw TemplateError(template: template, reason: "unexpected `\(first)` in `${\(text)}`")
            }
        }
        return .variable(path: steps, format: format)
    }

    /// The summary of `node`; a path that leads nowhere prints `<path>` with the missing step named, as lldb's errors do.
    public func render(_ node: ValueNode) -> String {
        segments.map { segment in
            switch segment {
            case .text(let text): return text
            case .variable(let path, let format):
                var current: ValueNode? = node
                for step in path {
                    switch step {
                    case .member(let name):
                        current = current?.child(name) ?? current?.children.first { $0.label == "." + name }
                    case .index(let index):
                        current = current.flatMap { index >= 0 && index < $0.children.count ? $0.children[index] : nil }
                    }
                }
                guard let value = current else { return "<no value>" }
                return Self.formatted(value, format)
            }
        }.joined()
    }

    private static func formatted(_ node: ValueNode, _ format: String?) -> String {
        switch format {
        case "#": return String(node.children.count + node.omitted)
        case "T": return node.typeName ?? "?"
        case "S": return node.summary ?? LineRenderer().render(node)
        case "V": return node.value ?? LineRenderer().render(node)
        case "x", "X":
            guard let text = node.value, let number = Int64(text) else {
                return node.value ?? LineRenderer().render(node)
            }
            let digits = String(UInt64(bitPattern: number), radix: 16, uppercase: format == "X")
            return "0x" + digits
        case "d": return node.value ?? LineRenderer().render(node)
        default:
            if let summary = node.summary { return summary }
            if node.kind == .string { return node.value ?? "" }
            return node.value ?? LineRenderer().render(node)
        }
    }
}

/// Why a summary string could not be read.
public struct TemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The summary string as written.
    public var template: String
    /// What is wrong with it.
    public var reason: String
    /// The string and the reason, in one line.
    public var description: String { "summary string \"\(template)\": \(reason)" }
}
