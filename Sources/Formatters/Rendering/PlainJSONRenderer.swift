import LogFraming
import PostmortemCore

/// Plain JSON for scripts, as `JSONEncoder` writes the value the tree shows (a type's synthesized `Codable`):
/// structures and classes become objects of their fields, a `nil` field left out; collections arrays; dictionaries
/// objects, in the order the value has them; optionals their value or `null`; an enum case with a payload
/// `{"case": {"label": value}}` (`_0`, `_1` for unlabelled values); a `Date` the seconds since 2001 `JSONEncoder`
/// writes by default. Numbers stay numbers, as printed. A case without a payload is its name, as an enum with `String`
/// raw values encodes (a dump does not show whether the enum has raw values; one without writes `{"case": {}}`).
package struct PlainJSONRenderer: Sendable {
    /// A renderer (it keeps no state).
    package init() {}

    /// A class instance referenced twice is written twice, as `JSONEncoder` writes it; where a cycle leaves no other
    /// way (an instance inside itself), the reference is `{"$ref": id}` and the instance it points at carries
    /// `"$id"`. Items a limit left out are counted where they were: `{"$omitted": n}` ends an array, `"$omitted": n`
    /// an object.
    package func render(_ node: ValueNode) -> String {
        var bytes: [UInt8] = []
        render(node, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``render(_:)`` appended to `bytes`.
    package func render(_ node: ValueNode, into bytes: inout [UInt8]) {
        // Text alone, that nothing read as a value, is the text (a line that looks like a date among them).
        if node.kind == .raw {
            JSONBytes.appendQuoted(node.value ?? "", to: &bytes)
            return
        }
        // Most values refer to no instance: written in one walk, which says whether it met a reference.
        let start = bytes.count
        var plain = Walk(instances: [:], named: [], budget: .max, writes: true)
        swap(&plain.output, &bytes)
        plain.write(node)
        swap(&plain.output, &bytes)
        guard plain.metReference else { return }
        bytes.removeLast(bytes.count - start)
        let (count, instances) = node.instanceIndex
        let budget = max(ValueBudget.standard, 4 * count)
        var named: Set<Int> = []
        if !instances.isEmpty {
            // The instances a reference points back at are known once the walk has met every reference: a first walk
            // finds them, writing nothing; the second, making the same choices, names them where they are written.
            var planning = Walk(instances: instances, named: [], budget: budget, writes: false)
            planning.write(node)
            named = planning.named
        }
        var writing = Walk(instances: instances, named: named, budget: budget, writes: true)
        // The caller's buffer is moved in and out, not copied.
        swap(&writing.output, &bytes)
        writing.write(node)
        swap(&writing.output, &bytes)
    }

    /// One walk of the tree, writing (or only deciding) as it goes.
    private struct Walk {
        let instances: [Int: ValueNode]
        /// Instances that a reference points at: they carry `"$id"`.
        var named: Set<Int>
        /// How many values are written before a shared instance is written as a reference instead of again: a graph
        /// of instances shared many times over would otherwise grow without bound.
        let budget: Int
        let writes: Bool
        var output: [UInt8] = []
        var written = 0
        /// The instances being written, outermost first: a reference to one of them is a cycle.
        var enclosing: Set<Int> = []
        /// Whether a reference was met.
        var metReference = false

        init(instances: [Int: ValueNode], named: Set<Int>, budget: Int, writes: Bool) {
            self.instances = instances
            self.named = named
            self.budget = budget
            self.writes = writes
        }

        mutating func emit(_ text: String) { if writes { JSONBytes.appendUTF8(text, to: &output) } }
        mutating func emitQuoted(_ text: String) { if writes { JSONBytes.appendQuoted(text, to: &output) } }

        mutating func write(_ node: ValueNode) {
            written += 1
            switch node.kind {
            case .null, .truncated: emit("null")
            case .optional:
                if let wrapped = node.children.first { write(wrapped) } else { emit("null") }
            case .string: emitQuoted(node.value ?? "")
            case .raw, .scalar: writeLeaf(node)
            case .reference: writeReference(to: node.reference ?? 0)
            case .collection, .set: writeArray(node.children, omitted: node.omitted)
            case .dictionary: writeObject(node.children, keys: .labels, omitted: node.omitted)
            case .structure, .class:
                let identity = node.kind == .class ? node.identity : nil
                if let identity { enclosing.insert(identity) }
                writeObject(
                    node.children, keys: .fields, omitted: node.omitted,
                    id: identity.flatMap { named.contains($0) ? $0 : nil })
                if let identity { enclosing.remove(identity) }
            case .tuple:
                if node.children.allSatisfy({ $0.label?.hasPrefix(".") ?? true }) {
                    writeArray(node.children, omitted: node.omitted)
                } else {
                    writeObject(node.children, keys: .fields, omitted: node.omitted)
                }
            case .enumeration: writeEnumeration(node)
            }
        }

        private mutating func writeLeaf(_ node: ValueNode) {
            let text = node.value ?? ""
            if node.kind == .scalar, text == "true" || text == "false" || PlainJSONRenderer.isJSONNumber(text) {
                emit(text)
            } else if let seconds = PlainJSONRenderer.secondsSinceReferenceDate(printed: text) {
                emit(String(seconds))
            } else {
                emitQuoted(node.kind == .scalar ? node.summary ?? text : text)
            }
        }

        /// An instance met again is written again, unless it encloses the reference (a cycle) or the budget is spent.
        private mutating func writeReference(to identity: Int) {
            metReference = true
            if !enclosing.contains(identity), written < budget, let instance = instances[identity] {
                write(instance)
                return
            }
            named.insert(identity)
            emit("{\"$ref\": \(identity)}")
        }

        private mutating func writeArray(_ elements: [ValueNode], omitted: Int) {
            emit("[")
            for index in elements.indices {
                if index > 0 { emit(", ") }
                write(elements[index])
            }
            if omitted > 0 { emit(elements.isEmpty ? "{\"$omitted\": \(omitted)}" : ", {\"$omitted\": \(omitted)}") }
            emit("]")
        }

        /// How an object's members are named: a dictionary's by their labels; a type's fields as `Codable` encodes
        /// them, a `nil` one left out, an unlabelled value of a case as `_0`, `_1`…
        enum Keys { case labels, fields }

        private mutating func writeObject(_ members: [ValueNode], keys: Keys, omitted: Int, id: Int? = nil) {
            emit("{")
            var first = true
            func separate() { if !first { emit(", ") }; first = false }
            if let id {
                separate()
                emit("\"$id\": \(id)")
            }
            for index in members.indices {
                switch keys {
                case .labels: separate(); emitQuoted(members[index].label ?? "")
                case .fields:
                    if members[index].isNil { continue }
                    separate()
                    if let label = members[index].label, !label.hasPrefix(".") {
                        emitQuoted(label)
                    } else {
                        emitQuoted("_\(index)")
                    }
                }
                emit(": ")
                write(members[index])
            }
            if omitted > 0 {
                separate()
                emit("\"$omitted\": \(omitted)")
            }
            emit("}")
        }

        /// `{"case": {fields}}`.
        private mutating func writeEnumeration(_ node: ValueNode) {
            let name = node.value ?? ""
            guard !node.children.isEmpty else {
                emitQuoted(name)
                return
            }
            emit("{")
            emitQuoted(name)
            emit(": ")
            writeObject(node.children, keys: .fields, omitted: 0)
            emit("}")
        }
    }

    /// The seconds since 2001-01-01 that `JSONEncoder` writes for a `Date` that `print` wrote as `text`
    /// (`2025-11-25 10:00:01 +0000`, whole seconds: the text has no more); nil for any other text.
    static func secondsSinceReferenceDate(printed text: String) -> Int64? {
        guard text.utf8.count == 25 else { return nil }
        let bytes = Array(text.utf8)
        guard bytes[19] == 0x20, bytes[20] == UInt8(ascii: "+") || bytes[20] == UInt8(ascii: "-"),
            let since1970 = LogTime.parse(Substring(text))
        else { return nil }
        return since1970 - secondsFrom1970To2001
    }

    private static let secondsFrom1970To2001: Int64 = 978_307_200

    /// A JSON number as RFC 8259 spells it (Swift prints `inf`, `nan`, `1e+20` forms; the first two are not numbers).
    static func isJSONNumber(_ text: String) -> Bool {
        let utf8 = text.utf8.span
        return isJSONNumber(utf8, 0..<utf8.count)
    }

    /// ``isJSONNumber(_:)`` of the bytes of `text` in `range`.
    static func isJSONNumber(_ text: Span<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        if index < range.upperBound, text[index] == UInt8(ascii: "-") { index += 1 }
        guard index < range.upperBound, TextCursor.isDigit(text[index]) else { return false }
        let first = text[index]
        index += 1
        if first == UInt8(ascii: "0"), index < range.upperBound, TextCursor.isDigit(text[index]) { return false }
        var seenDot = false, seenExponent = false, previous = first
        while index < range.upperBound {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): break
            case UInt8(ascii: ".") where !seenDot && !seenExponent && TextCursor.isDigit(previous): seenDot = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !seenExponent, TextCursor.isDigit(previous) else { return false }
                seenExponent = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return false }
            default: return false
            }
            previous = byte
            index += 1
        }
        return TextCursor.isDigit(previous)
    }
}

extension ValueNode {
    /// Whether this value is `nil`: what `Codable` leaves out of a type's fields.
    var isNil: Bool {
        switch kind {
        case .null: true
        case .optional: children.first?.isNil ?? true
        default: false
        }
    }

    /// How many values the tree holds, and every class instance written out in it by its identity (where a reference
    /// to it can be written again; none when no reference points anywhere).
    var instanceIndex: (count: Int, instances: [Int: ValueNode]) {
        var count = 0
        var instances: [Int: ValueNode] = [:]
        var hasReferences = false
        func visit(_ node: ValueNode) {
            count += 1
            if node.kind == .class, let identity = node.identity, instances[identity] == nil {
                instances[identity] = node
            }
            if node.kind == .reference { hasReferences = true }
            for index in node.children.indices { visit(node.children[index]) }
        }
        visit(self)
        return (count, hasReferences ? instances : [:])
    }
}
