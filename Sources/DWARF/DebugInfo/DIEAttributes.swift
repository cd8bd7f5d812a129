import PostmortemCore

/// The values one DIE gives the slots a walk asked for, as stored: the form and the number it holds (an address
/// or its index, a constant, an offset, where an in-place string starts). Reused from DIE to DIE.
struct DIEAttributes {
    // Made at the first value kept: a walk that only steps over DIEs (to the end of a subtree) keeps none, and
    // making the two arrays for each such walk cost more than the stepping.
    private var forms: [UInt64] = []
    private var values: [UInt64] = []
    /// The slots the current DIE filled.
    private(set) var present: UInt32 = 0

    /// The form and stored value of `slot`; `nil` when the DIE has no such attribute.
    subscript(slot: AttributeSlot) -> (form: UInt64, value: UInt64)? {
        present & slot.bit != 0 ? (forms[slot.rawValue], values[slot.rawValue]) : nil
    }

    func has(_ slot: AttributeSlot) -> Bool { present & slot.bit != 0 }

    /// Reads the attributes of a DIE with `abbreviation` (whose attributes lie in `specs`) from `cursor` (just past its code), keeping those in
    /// `wanted` (the first of each, as libdwarf does) and stepping over the rest. False when a value runs past the
    /// unit (`header`'s) or has a form no DWARF defines.
    mutating func read(
        _ abbreviation: Abbreviation, specs: [AttributeSpec], from cursor: inout ByteCursor, in header: UnitHeader,
        wanted: UInt32
    ) -> Bool {
        present = 0
        // Nothing wanted is there: the values are stepped over, none kept (most DIEs of a walk).
        if abbreviation.slots & wanted == 0 { return Self.skip(abbreviation, specs: specs, from: &cursor, in: header) }
        return read(abbreviation.specs, specs: specs, from: &cursor, in: header, wanted: wanted)
    }

    /// Reads the attributes `specs[range]` as ``read(_:specs:from:in:wanted:)`` does, one by one.
    private mutating func read(
        _ range: Range<Int>, specs: [AttributeSpec], from cursor: inout ByteCursor, in header: UnitHeader,
        wanted: UInt32
    ) -> Bool {
        let end = header.end
        for index in range {
            let attribute = specs[index]
            var form = UInt64(attribute.form)
            var layout = attribute.layout
            var size = Int(attribute.size)
            // An indirect form names the form of the value first, and may name another indirect one.
            var hops = 0
            while layout == .indirect {
                guard hops < 4, let named = cursor.uleb(),
                    let (namedLayout, namedSize) = AttributeForm.layout(
                        of: named, addressSize: header.addressSize,
                        offsetSize: header.offsetSize, version: header.version)
                else { return false }
                form = named
                layout = namedLayout
                size = namedSize
                hops += 1
            }
            let keep = wanted & attribute.bit != 0 && present & attribute.bit == 0
            let start = cursor.position
            var value: UInt64 = 0
            switch layout {
            case .fixed:
                if keep, size <= 8 {
                    guard let read = cursor.unsigned(size) else { return false }
                    value = form == AttributeForm.implicitConst ? UInt64(bitPattern: attribute.implicitConstant) : read
                } else {
                    guard cursor.skip(size) else { return false }
                }
            case .uleb:
                guard let read = cursor.uleb() else { return false }
                value = read
            case .sleb:
                guard let read = cursor.sleb() else { return false }
                value = UInt64(bitPattern: read)
            case .cString:
                value = UInt64(start)
                guard let terminator = Self.nul(in: cursor.bytes, from: start, before: end) else { return false }
                cursor.position = terminator + 1
            case .block1, .block2, .block4, .blockULEB:
                let length: UInt64?
                switch layout {
                case .block1: length = cursor.unsigned(1)
                case .block2: length = cursor.unsigned(2)
                case .block4: length = cursor.unsigned(4)
                default: length = cursor.uleb()
                }
                guard let length, cursor.skip(Int(clamping: length)) else { return false }
            case .indirect:
                return false
            }
            guard cursor.position <= end else { return false }
            if keep, let slot = attribute.slot {
                if forms.isEmpty {
                    forms = Array(repeating: 0, count: AttributeSlot.allCases.count)
                    values = forms
                }
                forms[slot.rawValue] = form
                values[slot.rawValue] = value
                present |= attribute.bit
            }
        }
        return true
    }

    /// Moves `cursor` (just past a DIE's code) past the attributes of a DIE with `abbreviation`, keeping none: without
    /// the bookkeeping of values kept (a walk through a subtree no lookup needs steps over most DIEs of a Swift unit
    /// this way). False as ``read(_:specs:from:in:wanted:)`` is.
    static func skip(
        _ abbreviation: Abbreviation, specs: [AttributeSpec], from cursor: inout ByteCursor, in header: UnitHeader
    ) -> Bool {
        let end = header.end
        if let size = abbreviation.fixedSize {
            guard size <= end - cursor.position else { return false }
            cursor.position += size
            return true
        }
        let bytes = cursor.bytes
        var position = cursor.position
        for index in abbreviation.specs {
            let attribute = specs[index]
            switch attribute.layout {
            case .fixed:
                position += Int(attribute.size)
            case .uleb, .sleb:
                // Both end at the first byte below 0x80.
                while position < end, bytes[position] & 0x80 != 0 { position += 1 }
                position += 1
            case .cString:
                guard let terminator = nul(in: bytes, from: position, before: end) else { return false }
                position = terminator + 1
            case .block1:
                guard position < end else { return false }
                position += 1 + Int(bytes[position])
            case .block2, .block4, .blockULEB:
                // `DW_FORM_exprloc` (blockULEB) is every variable's location: its length is read in place too.
                cursor.position = position
                let length =
                    attribute.layout == .blockULEB
                    ? cursor.uleb() : cursor.unsigned(attribute.layout == .block2 ? 2 : 4)
                guard let length, cursor.position <= end, length <= UInt64(end - cursor.position) else { return false }
                position = cursor.position + Int(length)
            case .indirect:
                // The form comes first, in the DIE: the general reader follows it.
                cursor.position = position
                var ignored = DIEAttributes()
                return ignored.read(
                    index..<abbreviation.specs.upperBound, specs: specs, from: &cursor, in: header, wanted: 0)
            }
            guard position <= end else { return false }
        }
        cursor.position = position
        return true
    }

    private static func nul(in bytes: UnsafeRawBufferPointer, from start: Int, before end: Int) -> Int? {
        var position = start
        while position < end {
            if bytes[position] == 0 { return position }
            position += 1
        }
        return nil
    }
}
