import PostmortemCore

/// Prints a collection given an element at a time (``StreamedDump``) as ``TreeRenderer``, ``LineRenderer`` and
/// ``PlainJSONRenderer`` print the whole value cut by the same limits, byte for byte, handing the text on as it goes:
/// the whole is never held, in the tree or in the text.
///
/// The collection has no type name (so no summary, and no formatter applies to it), and nothing in it is a class
/// instance referred to twice: what a ``StreamedDump`` reads. Only its elements need the renderers.
package struct StreamedCollectionWriter {
    private let style: DescriptionStyle
    private let container: ValueNode
    private let limiter: ValueLimiter
    private let write: (ArraySlice<UInt8>) -> Void
    /// Text not yet handed on.
    private var output: [UInt8] = []
    /// The last element taken, printed once it is known whether another follows (the tree ends all but the last
    /// in a comma).
    private var pending: ValueNode?
    private var shown = 0
    private var omitted = 0

    /// A writer of `container`'s elements in `style`, cut to `limits`, handing its UTF-8 text to `write` in pieces
    /// of about a megabyte.
    package init(
        style: DescriptionStyle, container: ValueNode, limits: RenderLimits,
        write: @escaping (ArraySlice<UInt8>) -> Void
    ) {
        self.style = style
        self.container = container
        self.limiter = ValueLimiter(limits: limits)
        self.write = write
    }

    /// Whether the next element is shown: when not, it is only counted, and ``addLeftOut()`` may take its place.
    package var showsNextElement: Bool { limiter.limits.maxDepth > 0 && shown < limiter.limits.maxItems }

    /// Counts an element the limits leave out, without its value.
    package mutating func addLeftOut() { omitted += 1 }

    /// Takes the next element (formatters already applied).
    package mutating func add(_ element: ValueNode) {
        guard showsNextElement else {
            omitted += 1
            return
        }
        if let pending {
            if shown == 1 { output += opening.utf8 }
            append(pending, isLast: false)
            if output.count >= 1 << 20 {
                write(output[...])
                output.removeAll(keepingCapacity: true)
            }
        }
        pending = limiter.limitElement(element)
        shown += 1
    }

    /// Writes every element of `stream` and the rest: each element through `prepare` (the formatters), the ones the
    /// limits leave out stepped over and counted; `incomplete` is called for each element that did not fit in its
    /// value budget.
    package mutating func writeAll(
        of stream: inout StreamedDump, preparing prepare: (ValueNode) -> ValueNode, incomplete: () -> Void = {}
    ) {
        while true {
            guard showsNextElement else {
                guard stream.skip() else { break }
                addLeftOut()
                continue
            }
            guard let (element, isComplete) = stream.next() else { break }
            if !isComplete { incomplete() }
            add(prepare(element))
        }
        finish()
    }

    /// Writes the rest, once every element was taken.
    package mutating func finish() {
        if let pending {
            if shown == 1 { output += opening.utf8 }
            append(pending, isLast: true)
            output += closing.utf8
        } else {
            // Nothing shown: what is printed is the collection's count of what was left out, or its empty brackets.
            var node = container
            node.omitted = omitted
            output += style.render(node).utf8
            output.append(0x0A)
        }
        write(output[...])
        output = []
    }

    private var isDictionary: Bool { container.kind == .dictionary }

    private var opening: String {
        switch style {
        case .tree: "[\n"
        case .line: "["
        case .json: isDictionary ? "{" : "["
        }
    }

    private mutating func append(_ element: ValueNode, isLast: Bool) {
        switch style {
        case .tree:
            let trailing = isLast && omitted == 0 ? "" : ","
            output += TreeRenderer().renderElement(element, in: container.kind, trailing: trailing).utf8
            output.append(0x0A)
            return
        case .line:
            if isDictionary { output += (SwiftLiteral.quoted(element.label ?? "") + ": ").utf8 }
            output += LineRenderer().render(element).utf8
        case .json:
            if isDictionary {
                JSONBytes.appendQuoted(element.label ?? "", to: &output)
                output += ": ".utf8
            }
            PlainJSONRenderer().render(element, into: &output)
        }
        if !isLast { output += ", ".utf8 }
    }

    private var closing: String {
        switch style {
        case .tree: (omitted > 0 ? "  … (+\(omitted) more)\n" : "") + "]\n"
        case .line: (omitted > 0 ? ", … (+\(omitted) more)" : "") + "]\n"
        case .json:
            if isDictionary {
                (omitted > 0 ? ", \"$omitted\": \(omitted)" : "") + "}\n"
            } else {
                (omitted > 0 ? ", {\"$omitted\": \(omitted)}" : "") + "]\n"
            }
        }
    }
}
