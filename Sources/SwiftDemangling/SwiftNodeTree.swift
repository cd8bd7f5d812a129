/// A node of a demangling tree, by its place in ``SwiftNodeTree``.
typealias SwiftNodeID = Int32

/// The nodes of one symbol's demangling tree in three flat arrays (nodes, child lists, text bytes), kept and reused
/// from one symbol to the next, so that demangling a name allocates nothing once the arrays have grown.
///
/// Nodes are shared as the compiler's demangler shares them (a substitution is the same node wherever it is used),
/// and a child added to a node is seen by every user of that node.
struct SwiftNodeTree {
    struct Node {
        var kind: SwiftNodeKind
        var textStart: Int32 = 0
        var textCount: Int32 = 0
        var index: UInt64 = 0
        var childStart: Int32 = 0
        var childCount: Int32 = 0
    }

    private(set) var nodes: [Node] = []
    private(set) var children: [SwiftNodeID] = []
    private(set) var text: [UInt8] = []

    init() {
        nodes.reserveCapacity(256)
        children.reserveCapacity(512)
        text.reserveCapacity(1024)
    }

    mutating func removeAll() {
        nodes.removeAll(keepingCapacity: true)
        children.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
    }

    // MARK: Making nodes

    mutating func make(_ kind: SwiftNodeKind) -> SwiftNodeID {
        nodes.append(Node(kind: kind))
        return SwiftNodeID(nodes.count - 1)
    }

    mutating func make(_ kind: SwiftNodeKind, index: UInt64) -> SwiftNodeID {
        nodes.append(Node(kind: kind, index: index))
        return SwiftNodeID(nodes.count - 1)
    }

    mutating func make(_ kind: SwiftNodeKind, text bytes: some Collection<UInt8>) -> SwiftNodeID {
        let start = text.count
        text.append(contentsOf: bytes)
        nodes.append(Node(kind: kind, textStart: Int32(start), textCount: Int32(text.count - start)))
        return SwiftNodeID(nodes.count - 1)
    }

    mutating func make(_ kind: SwiftNodeKind, string: StaticString) -> SwiftNodeID {
        string.withUTF8Buffer { make(kind, text: $0) }
    }

    /// A node whose text is the bytes appended to ``text`` since `start`.
    mutating func make(_ kind: SwiftNodeKind, textFrom start: Int) -> SwiftNodeID {
        nodes.append(Node(kind: kind, textStart: Int32(start), textCount: Int32(text.count - start)))
        return SwiftNodeID(nodes.count - 1)
    }

    mutating func appendText(_ bytes: some Collection<UInt8>) {
        text.append(contentsOf: bytes)
    }

    var textCount: Int { text.count }

    /// A node of `kind` with the text or index of `node` and its children (the demangler's `changeKind`).
    mutating func copy(_ node: SwiftNodeID, as kind: SwiftNodeKind) -> SwiftNodeID {
        var record = nodes[Int(node)]
        record.kind = kind
        if record.childCount > 0 {
            // A list of its own, so that the copy's children can change without changing the original's.
            let start = Int(record.childStart)
            record.childStart = Int32(children.count)
            for position in start..<(start + Int(record.childCount)) { children.append(children[position]) }
        }
        nodes.append(record)
        return SwiftNodeID(nodes.count - 1)
    }

    mutating func addChild(_ child: SwiftNodeID, to parent: SwiftNodeID) {
        let record = nodes[Int(parent)]
        let start = Int(record.childStart)
        let count = Int(record.childCount)
        if count == 0 || start + count != children.count {
            // Not at the end of the child array: move the list there, so that it can grow in place.
            let newStart = children.count
            for position in start..<(start + count) { children.append(children[position]) }
            nodes[Int(parent)].childStart = Int32(newStart)
        }
        children.append(child)
        nodes[Int(parent)].childCount += 1
    }

    mutating func removeChild(at position: Int, of parent: SwiftNodeID) {
        let record = nodes[Int(parent)]
        let start = Int(record.childStart)
        let count = Int(record.childCount)
        var moved = start + position
        while moved + 1 < start + count {
            children[moved] = children[moved + 1]
            moved += 1
        }
        nodes[Int(parent)].childCount -= 1
    }

    mutating func reverseChildren(of parent: SwiftNodeID, from first: Int = 0) {
        let record = nodes[Int(parent)]
        let start = Int(record.childStart)
        let count = Int(record.childCount)
        guard first < count else { return }
        children[(start + first)..<(start + count)].reverse()
    }

    // MARK: Reading nodes

    @inline(__always) func kind(_ node: SwiftNodeID) -> SwiftNodeKind { nodes[Int(node)].kind }

    @inline(__always) func index(_ node: SwiftNodeID) -> UInt64 { nodes[Int(node)].index }

    @inline(__always) func childCount(_ node: SwiftNodeID) -> Int { Int(nodes[Int(node)].childCount) }

    @inline(__always) func child(_ node: SwiftNodeID, _ position: Int) -> SwiftNodeID {
        children[Int(nodes[Int(node)].childStart) + position]
    }

    /// The child at `position`, or nil when `node` has fewer children (a malformed tree the printer declines).
    func childIfPresent(_ node: SwiftNodeID, _ position: Int) -> SwiftNodeID? {
        position < childCount(node) ? child(node, position) : nil
    }

    func firstChild(_ node: SwiftNodeID, ofKind kind: SwiftNodeKind) -> SwiftNodeID? {
        for position in 0..<childCount(node) where self.kind(child(node, position)) == kind {
            return child(node, position)
        }
        return nil
    }

    func textRange(_ node: SwiftNodeID) -> Range<Int> {
        let record = nodes[Int(node)]
        return Int(record.textStart)..<Int(record.textStart + record.textCount)
    }

    func textEquals(_ node: SwiftNodeID, _ string: StaticString) -> Bool {
        let range = textRange(node)
        return string.withUTF8Buffer { expected in
            expected.count == range.count && zip(text[range], expected).allSatisfy { $0 == $1 }
        }
    }
}
