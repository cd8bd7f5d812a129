/// A node of a demangling tree, by its place in ``SwiftNodeTree``.
typealias SwiftNodeID = Int32

/// The nodes of one symbol's demangling tree in three flat buffers (nodes, child lists, text bytes), kept and reused
/// from one symbol to the next, so that demangling a name allocates nothing once the buffers have grown.
///
/// The buffers are raw memory (``RawBuffer``) rather than arrays: a name makes some hundred nodes and child links,
/// and with an array's bounds and uniqueness checks on each the demangler was half again as slow as the runtime's.
/// Node ids come only from ``make(_:)`` and its siblings, and child positions are checked against
/// ``childCount(_:)`` by the callers; debug builds check both.
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

    private let nodes = RawBuffer<Node>(capacity: 256)
    private let children = RawBuffer<SwiftNodeID>(capacity: 512)
    private let bytes = RawBuffer<UInt8>(capacity: 1024)

    init() {}

    func removeAll() {
        nodes.removeAll()
        children.removeAll()
        bytes.removeAll()
    }

    @inline(__always) private func appendNode(_ node: Node) -> SwiftNodeID {
        nodes.append(node)
        return SwiftNodeID(nodes.count - 1)
    }

    // MARK: Making nodes

    func make(_ kind: SwiftNodeKind) -> SwiftNodeID {
        appendNode(Node(kind: kind))
    }

    /// A node whose children are those given, in order: their list is made at once, where adding them one by one
    /// would check and move the list each time.
    func make(_ kind: SwiftNodeKind, children first: SwiftNodeID) -> SwiftNodeID {
        let start = children.count
        children.append(first)
        return appendNode(Node(kind: kind, childStart: Int32(start), childCount: 1))
    }

    func make(_ kind: SwiftNodeKind, children first: SwiftNodeID, _ second: SwiftNodeID) -> SwiftNodeID {
        let start = children.count
        children.append(first)
        children.append(second)
        return appendNode(Node(kind: kind, childStart: Int32(start), childCount: 2))
    }

    func make(
        _ kind: SwiftNodeKind, children first: SwiftNodeID, _ second: SwiftNodeID, _ third: SwiftNodeID
    ) -> SwiftNodeID {
        let start = children.count
        children.append(first)
        children.append(second)
        children.append(third)
        return appendNode(Node(kind: kind, childStart: Int32(start), childCount: 3))
    }

    func make(
        _ kind: SwiftNodeKind, children first: SwiftNodeID, _ second: SwiftNodeID, _ third: SwiftNodeID,
        _ fourth: SwiftNodeID
    ) -> SwiftNodeID {
        let start = children.count
        children.append(first)
        children.append(second)
        children.append(third)
        children.append(fourth)
        return appendNode(Node(kind: kind, childStart: Int32(start), childCount: 4))
    }

    func make(_ kind: SwiftNodeKind, index: UInt64) -> SwiftNodeID {
        appendNode(Node(kind: kind, index: index))
    }

    func make(_ kind: SwiftNodeKind, text: some Collection<UInt8>) -> SwiftNodeID {
        let start = bytes.count
        appendText(text)
        return make(kind, textFrom: start)
    }

    func make(_ kind: SwiftNodeKind, string: StaticString) -> SwiftNodeID {
        let start = bytes.count
        string.withUTF8Buffer { bytes.append(contentsOf: $0) }
        return make(kind, textFrom: start)
    }

    /// A node whose text is the bytes appended to the text since `start`.
    func make(_ kind: SwiftNodeKind, textFrom start: Int) -> SwiftNodeID {
        appendNode(Node(kind: kind, textStart: Int32(start), textCount: Int32(bytes.count - start)))
    }

    func appendText(_ text: some Collection<UInt8>) {
        if let done = text.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) { return done }
        let copy = Array(text)
        copy.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
    }

    func appendText(_ text: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: text)
    }

    var textCount: Int { bytes.count }

    /// A node of `kind` with the text or index of `node` and its children (the demangler's `changeKind`).
    func copy(_ node: SwiftNodeID, as kind: SwiftNodeKind) -> SwiftNodeID {
        var record = nodes.base[Int(node)]
        record.kind = kind
        if record.childCount > 0 {
            // A list of its own, so that the copy's children can change without changing the original's.
            let start = Int(record.childStart)
            record.childStart = Int32(children.count)
            for position in start..<(start + Int(record.childCount)) {
                children.append(children.base[position])
            }
        }
        return appendNode(record)
    }

    func addChild(_ child: SwiftNodeID, to parent: SwiftNodeID) {
        let record = nodes.base + Int(parent)
        let start = Int(record.pointee.childStart)
        let count = Int(record.pointee.childCount)
        if count == 0 || start + count != children.count {
            // Not at the end of the child buffer: move the list there, so that it can grow in place.
            let newStart = children.count
            for position in start..<(start + count) { children.append(children.base[position]) }
            (nodes.base + Int(parent)).pointee.childStart = Int32(newStart)
        }
        children.append(child)
        (nodes.base + Int(parent)).pointee.childCount += 1
    }

    func reverseChildren(of parent: SwiftNodeID, from first: Int = 0) {
        let record = nodes.base[Int(parent)]
        let count = Int(record.childCount)
        guard first < count else { return }
        var low = Int(record.childStart) + first
        var high = Int(record.childStart) + count - 1
        while low < high {
            swap(&children.base[low], &children.base[high])
            low += 1
            high -= 1
        }
    }

    // MARK: Reading nodes

    @inline(__always) func kind(_ node: SwiftNodeID) -> SwiftNodeKind {
        assert(Int(node) < nodes.count)
        return nodes.base[Int(node)].kind
    }

    @inline(__always) func index(_ node: SwiftNodeID) -> UInt64 { nodes.base[Int(node)].index }

    @inline(__always) func childCount(_ node: SwiftNodeID) -> Int { Int(nodes.base[Int(node)].childCount) }

    @inline(__always) func child(_ node: SwiftNodeID, _ position: Int) -> SwiftNodeID {
        assert(position < childCount(node))
        return children.base[Int(nodes.base[Int(node)].childStart) + position]
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

    /// The text bytes of every node; valid until the next change to the tree.
    var text: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes.base, count: bytes.count) }

    func textRange(_ node: SwiftNodeID) -> Range<Int> {
        let record = nodes.base[Int(node)]
        return Int(record.textStart)..<Int(record.textStart + record.textCount)
    }

    func textEquals(_ node: SwiftNodeID, _ string: StaticString) -> Bool {
        string.withUTF8Buffer { text[textRange(node)].elementsEqual($0) }
    }
}
