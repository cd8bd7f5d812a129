/// A growable buffer of plain values in raw memory, reused from one name to the next: what the demangler appends
/// to for every operator and every printed word, where an array's uniqueness and bounds checks, and a class's
/// run-time exclusivity checks on stored properties, would cost more than the work (its count and pointer live behind
/// a pointer for that reason).
final class RawBuffer<Element: BitwiseCopyable> {
    private struct Header {
        var base: UnsafeMutablePointer<Element>
        var count: Int
        var capacity: Int
    }

    private let header: UnsafeMutablePointer<Header>

    init(capacity: Int) {
        header = .allocate(capacity: 1)
        header.initialize(to: Header(base: .allocate(capacity: capacity), count: 0, capacity: capacity))
    }

    deinit {
        header.pointee.base.deallocate()
        header.deallocate()
    }

    @inline(__always) var count: Int { header.pointee.count }

    @inline(__always) var base: UnsafeMutablePointer<Element> { header.pointee.base }

    @inline(__always) func removeAll() { header.pointee.count = 0 }

    @inline(__always) subscript(position: Int) -> Element {
        assert(position < count)
        return header.pointee.base[position]
    }

    @inline(__always) func append(_ element: Element) {
        if header.pointee.count == header.pointee.capacity { grow(toHold: header.pointee.count + 1) }
        header.pointee.base[header.pointee.count] = element
        header.pointee.count += 1
    }

    func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress else { return }
        if header.pointee.count + elements.count > header.pointee.capacity {
            grow(toHold: header.pointee.count + elements.count)
        }
        (header.pointee.base + header.pointee.count).update(from: source, count: elements.count)
        header.pointee.count += elements.count
    }

    @inline(__always) var last: Element? { count > 0 ? header.pointee.base[count - 1] : nil }

    @inline(__always) func removeLast() -> Element {
        assert(count > 0)
        header.pointee.count -= 1
        return header.pointee.base[header.pointee.count]
    }

    /// The elements, valid until the next change.
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    private func grow(toHold needed: Int) {
        var capacity = max(header.pointee.capacity * 2, 16)
        while capacity < needed { capacity *= 2 }
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        larger.update(from: header.pointee.base, count: header.pointee.count)
        header.pointee.base.deallocate()
        header.pointee.base = larger
        header.pointee.capacity = capacity
    }
}
