import PostmortemCore

extension UnitReader {
    /// One DIE as read in place: where it starts, its tag, whether it has children, and the attributes asked for.
    struct DIE {
        let offset: Int
        let tag: UInt64
        let hasChildren: Bool
        let attributes: DIEAttributes
        /// Where its attributes end: its first child, when it has children.
        let end: Int
    }

    /// The DIE at `offset` of this unit, with the attributes in `wanted`; `nil` when it cannot be read.
    func die(at offset: Int, wanted: UInt32) -> DIE? {
        guard offset >= header.firstDIE, offset < header.end else { return nil }
        var cursor = cursor(at: offset)
        var attributes = DIEAttributes()
        guard let code = cursor.uleb(), code != 0, let abbreviation = abbreviations[code],
            read(abbreviation, into: &attributes, from: &cursor, wanted: wanted | AttributeSlot.sibling.bit)
        else { return nil }
        return DIE(
            offset: offset, tag: abbreviation.tag, hasChildren: abbreviation.hasChildren, attributes: attributes,
            end: cursor.position)
    }

    /// Calls `body` with each child of `parent`, in order, until it returns false or a child cannot be read. A child
    /// whose `DW_AT_sibling` does not lead forward inside the unit ends the walk (it would go round for ever).
    func forEachChild(of parent: DIE, wanted: UInt32, _ body: (DIE) -> Bool) {
        guard parent.hasChildren else { return }
        var position = parent.end
        while position < header.end {
            var probe = cursor(at: position)
            guard let code = probe.uleb(), code != 0, let child = die(at: position, wanted: wanted), body(child) else {
                return
            }
            guard let next = nextSibling(of: child) else { return }
            position = next
        }
    }

    /// Where the DIE after `die` and its children starts: the sibling it names, else past its subtree.
    private func nextSibling(of die: DIE) -> Int? {
        guard die.hasChildren else { return die.end }
        if let sibling = reference(die.attributes[.sibling]) {
            guard sibling > UInt64(die.offset), sibling < UInt64(header.end) else { return nil }
            return Int(sibling)
        }
        return endOfChildren(startingAt: die.end)
    }

    /// Where the list of children starting at `start` ends: past the null entry that closes it, read through every
    /// DIE below (none names its sibling); `nil` when a DIE on the way cannot be read.
    func endOfChildren(startingAt start: Int) -> Int? {
        var cursor = cursor(at: start)
        var open = 1
        while open > 0 {
            guard let code = cursor.uleb() else { return nil }
            if code == 0 { open -= 1; continue }
            guard let inner = abbreviations[code],
                DIEAttributes.skip(inner, specs: abbreviations.specs, from: &cursor, in: header)
            else { return nil }
            if inner.hasChildren { open += 1 }
        }
        return cursor.position
    }
}
