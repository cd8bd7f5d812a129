/// A node of a demangling tree, by its place in ``SwiftNodeTree``.
typealias SwiftNodeID = Int32

/// The nodes of one symbol's demangling tree in three flat buffers (nodes, child lists, text bytes), kept and reused
/// from one symbol to the next, so that demangling a name allocates nothing once the buffers have grown.
///
/// The buffers are raw memory rather than arrays: a name makes some hundred nodes and child links, and an array's
/// bounds and uniqueness checks on each cost more than the runtime's whole demangler spends on them. Node ids come
/// only from ``make(_:)`` and its siblings, and child positions are checked against ``childCount(_:)`` by the
/// callers; debug builds check both.
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

    /// The three buffers, grown by doubling and freed with the tree. Their pointers and counts live in raw memory
    /// too: a class's stored `var`s are checked for exclusive access at run time on every use.
    private final class Storage {
        private struct Header {
            var nodes: UnsafeMutablePointer<Node>
            var nodeCount = 0
            var nodeCapacity: Int
            var children: UnsafeMutablePointer<SwiftNodeID>
            var childCount = 0
            var childCapacity: Int
            var text: UnsafeMutablePointer<UInt8>
            var textCount = 0
            var textCapacity: Int
        }

        private let header: UnsafeMutablePointer<Header>

        var nodes: UnsafeMutablePointer<Node> {
            get { header.pointee.nodes }
            set { header.pointee.nodes = newValue }
        }
        var nodeCount: Int {
            get { header.pointee.nodeCount }
            set { header.pointee.nodeCount = newValue }
        }
        var nodeCapacity: Int {
            get { header.pointee.nodeCapacity }
            set { header.pointee.nodeCapacity = newValue }
        }
        var children: UnsafeMutablePointer<SwiftNodeID> {
            get { header.pointee.children }
            set { header.pointee.children = newValue }
        }
        var childCount: Int {
            get { header.pointee.childCount }
            set { header.pointee.childCount = newValue }
        }
        var childCapacity: Int {
            get { header.pointee.childCapacity }
            set { header.pointee.childCapacity = newValue }
        }
        var text: UnsafeMutablePointer<UInt8> {
            get { header.pointee.text }
            set { header.pointee.text = newValue }
        }
        var textCount: Int {
            get { header.pointee.textCount }
            set { header.pointee.textCount = newValue }
        }
        var textCapacity: Int {
            get { header.pointee.textCapacity }
            set { header.pointee.textCapacity = newValue }
        }

        init() {
            header = .allocate(capacity: 1)
            header.initialize(
                to: Header(
                    nodes: .allocate(capacity: 256), nodeCapacity: 256, children: .allocate(capacity: 512),
                    childCapacity: 512, text: .allocate(capacity: 1024), textCapacity: 1024))
        }

        deinit {
            nodes.deallocate()
            children.deallocate()
            text.deallocate()
            header.deallocate()
        }

        static func grown<Element>(
            _ buffer: UnsafeMutablePointer<Element>, count: Int, capacity: inout Int, needed: Int
        ) -> UnsafeMutablePointer<Element> {
            var newCapacity = capacity * 2
            while newCapacity < needed { newCapacity *= 2 }
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
            larger.moveInitialize(from: buffer, count: count)
            buffer.deallocate()
            capacity = newCapacity
            return larger
        }

        @inline(__always) func appendNode(_ node: Node) -> SwiftNodeID {
            if nodeCount == nodeCapacity {
                var capacity = nodeCapacity
                nodes = Self.grown(nodes, count: nodeCount, capacity: &capacity, needed: nodeCount + 1)
                nodeCapacity = capacity
            }
            (nodes + nodeCount).initialize(to: node)
            nodeCount += 1
            return SwiftNodeID(nodeCount - 1)
        }

        @inline(__always) func appendChild(_ child: SwiftNodeID) {
            if childCount == childCapacity {
                var capacity = childCapacity
                children = Self.grown(children, count: childCount, capacity: &capacity, needed: childCount + 1)
                childCapacity = capacity
            }
            children[childCount] = child
            childCount += 1
        }

        func appendText(_ bytes: UnsafeBufferPointer<UInt8>) {
            if textCount + bytes.count > textCapacity {
                var capacity = textCapacity
                text = Self.grown(text, count: textCount, capacity: &capacity, needed: textCount + bytes.count)
                textCapacity = capacity
            }
            if let base = bytes.baseAddress { (text + textCount).update(from: base, count: bytes.count) }
            textCount += bytes.count
        }
    }

    private let storage = Storage()

    init() {}

    func removeAll() {
        storage.nodeCount = 0
        storage.childCount = 0
        storage.textCount = 0
    }

    // MARK: Making nodes

    func make(_ kind: SwiftNodeKind) -> SwiftNodeID {
        storage.appendNode(Node(kind: kind))
    }

    func make(_ kind: SwiftNodeKind, index: UInt64) -> SwiftNodeID {
        storage.appendNode(Node(kind: kind, index: index))
    }

    func make(_ kind: SwiftNodeKind, text bytes: some Collection<UInt8>) -> SwiftNodeID {
        let start = storage.textCount
        appendText(bytes)
        return make(kind, textFrom: start)
    }

    func make(_ kind: SwiftNodeKind, string: StaticString) -> SwiftNodeID {
        let start = storage.textCount
        string.withUTF8Buffer { storage.appendText($0) }
        return make(kind, textFrom: start)
    }

    /// A node whose text is the bytes appended to the text since `start`.
    func make(_ kind: SwiftNodeKind, textFrom start: Int) -> SwiftNodeID {
        storage.appendNode(Node(kind: kind, textStart: Int32(start), textCount: Int32(storage.textCount - start)))
    }

    func appendText(_ bytes: some Collection<UInt8>) {
        if let done = bytes.withContiguousStorageIfAvailable({ storage.appendText($0) }) { return done }
        let copy = Array(bytes)
        copy.withUnsafeBufferPointer { storage.appendText($0) }
    }

    func appendText(_ bytes: UnsafeBufferPointer<UInt8>) {
        storage.appendText(bytes)
    }

    var textCount: Int { storage.textCount }

    /// A node of `kind` with the text or index of `node` and its children (the demangler's `changeKind`).
    func copy(_ node: SwiftNodeID, as kind: SwiftNodeKind) -> SwiftNodeID {
        var record = storage.nodes[Int(node)]
        record.kind = kind
        if record.childCount > 0 {
            // A list of its own, so that the copy's children can change without changing the original's.
            let start = Int(record.childStart)
            record.childStart = Int32(storage.childCount)
            for position in start..<(start + Int(record.childCount)) {
                storage.appendChild(storage.children[position])
            }
        }
        return storage.appendNode(record)
    }

    func addChild(_ child: SwiftNodeID, to parent: SwiftNodeID) {
        let record = storage.nodes + Int(parent)
        let start = Int(record.pointee.childStart)
        let count = Int(record.pointee.childCount)
        if count == 0 || start + count != storage.childCount {
            // Not at the end of the child buffer: move the list there, so that it can grow in place.
            let newStart = storage.childCount
            for position in start..<(start + count) { storage.appendChild(storage.children[position]) }
            (storage.nodes + Int(parent)).pointee.childStart = Int32(newStart)
        }
        storage.appendChild(child)
        (storage.nodes + Int(parent)).pointee.childCount += 1
    }

    func reverseChildren(of parent: SwiftNodeID, from first: Int = 0) {
        let record = storage.nodes[Int(parent)]
        let count = Int(record.childCount)
        guard first < count else { return }
        var low = Int(record.childStart) + first
        var high = Int(record.childStart) + count - 1
        while low < high {
            swap(&storage.children[low], &storage.children[high])
            low += 1
            high -= 1
        }
    }

    // MARK: Reading nodes

    @inline(__always) func kind(_ node: SwiftNodeID) -> SwiftNodeKind {
        assert(Int(node) < storage.nodeCount)
        return storage.nodes[Int(node)].kind
    }

    @inline(__always) func index(_ node: SwiftNodeID) -> UInt64 { storage.nodes[Int(node)].index }

    @inline(__always) func childCount(_ node: SwiftNodeID) -> Int { Int(storage.nodes[Int(node)].childCount) }

    @inline(__always) func child(_ node: SwiftNodeID, _ position: Int) -> SwiftNodeID {
        assert(position < childCount(node))
        return storage.children[Int(storage.nodes[Int(node)].childStart) + position]
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
    var text: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage.text, count: storage.textCount) }

    func textRange(_ node: SwiftNodeID) -> Range<Int> {
        let record = storage.nodes[Int(node)]
        return Int(record.textStart)..<Int(record.textStart + record.textCount)
    }

    func textEquals(_ node: SwiftNodeID, _ string: StaticString) -> Bool {
        let range = textRange(node)
        return string.withUTF8Buffer { expected in
            expected.count == range.count
                && memcmpEqual(storage.text + range.lowerBound, expected.baseAddress, range.count)
        }
    }

    private func memcmpEqual(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
        guard let right else { return count == 0 }
        for offset in 0..<count where left[offset] != right[offset] { return false }
        return true
    }
}
