/// Parses binary property lists (`bplist00`), as `PropertyListEncoder` and `plutil -convert binary1` write them:
/// a trailer that locates the offset table, objects addressed through it (booleans, integers up to 128 bits,
/// reals, dates, data, ASCII and UTF-16 strings, UIDs, arrays, sets, dictionaries). Every offset, count and
/// reference is checked against the file; a reference that loops back into its own ancestors, or nesting deeper
/// than ``maximumDepth``, is an error, not a hang; objects shared so often that expanding them would not end are
/// read up to the value budget. The string `$null` is `nil`, as Foundation's coders write it.
package struct BinaryPropertyListParser {
    /// Nesting deeper than this is an error, not a stack overflow.
    package static let maximumDepth = 512
    /// The bytes a binary property list starts with.
    package static let magic: [UInt8] = Array("bplist00".utf8)

    /// Why the bytes are not a binary property list this parser reads.
    package struct Failure: Error, CustomStringConvertible {
        /// What is wrong, in a few words.
        package var reason: String
        /// The reason, saying it concerns a binary property list.
        package var description: String { "binary property list: \(reason)" }
    }

    private let bytes: [UInt8]
    private var offsets: [Int] = []
    private var referenceSize = 0
    private var ancestors: Set<Int> = []

    /// Whether `bytes` start as a binary property list does.
    package static func recognizes(_ bytes: some Collection<UInt8>) -> Bool { bytes.starts(with: magic) }

    /// Reads at most `budget` values; when it runs out, what was read comes back with the rest marked truncated.
    package static func parse(_ bytes: [UInt8], budget: inout ValueBudget) throws(Failure) -> ValueNode {
        var parser = BinaryPropertyListParser(bytes: bytes, budget: budget)
        defer { budget = parser.budget }
        let top = try parser.readTrailer()
        return try parser.object(top, depth: 0)
    }

    private var budget: ValueBudget

    private init(bytes: [UInt8], budget: ValueBudget) {
        self.bytes = bytes
        self.budget = budget
    }

    /// Big-endian unsigned integer of `size` bytes (1–8) at `offset`, or nil past the end.
    private func unsigned(at offset: Int, size: Int) -> UInt64? {
        guard size >= 1, size <= 8, offset >= 0, offset <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// Reads the 32-byte trailer and the offset table; returns the top object's number.
    private mutating func readTrailer() throws(Failure) -> Int {
        guard bytes.count >= Self.magic.count + 32, bytes.starts(with: Self.magic) else {
            throw Failure(reason: "too short or no bplist00 header")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard let objectCount = unsigned(at: trailer + 8, size: 8), let top = unsigned(at: trailer + 16, size: 8),
            let tableOffset = unsigned(at: trailer + 24, size: 8)
        else { throw Failure(reason: "a broken trailer") }
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Failure(reason: "offset size \(offsetSize) or reference size \(referenceSize) out of range")
        }
        guard objectCount > 0, objectCount <= UInt64(bytes.count), top < objectCount else {
            throw Failure(reason: "\(objectCount) objects with the top one at \(top)")
        }
        guard tableOffset >= 8, tableOffset <= UInt64(trailer),
            objectCount * UInt64(offsetSize) <= UInt64(trailer) - tableOffset
        else { throw Failure(reason: "the offset table lies outside the file") }
        offsets.reserveCapacity(Int(objectCount))
        for index in 0..<Int(objectCount) {
            let offset = unsigned(at: Int(tableOffset) + index * offsetSize, size: offsetSize)!
            guard offset >= 8, offset < tableOffset else {
                throw Failure(reason: "object \(index) at \(offset), outside the object area")
            }
            offsets.append(Int(offset))
        }
        return Int(top)
    }

    /// The length of a container or string: the marker's low nibble, or an integer object after it when that is 0xF.
    private func length(marker: UInt8, at offset: Int) throws(Failure) -> (count: Int, start: Int) {
        let nibble = Int(marker & 0x0F)
        guard nibble == 0x0F else { return (nibble, offset + 1) }
        guard offset + 1 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else {
            throw Failure(reason: "a bad length at \(offset)")
        }
        let size = 1 << Int(bytes[offset + 1] & 0x0F)
        guard size <= 8, let count = unsigned(at: offset + 2, size: size), count <= UInt64(bytes.count) else {
            throw Failure(reason: "a length past the end at \(offset)")
        }
        return (Int(count), offset + 2 + size)
    }

    private func reference(at offset: Int) throws(Failure) -> Int {
        guard let value = unsigned(at: offset, size: referenceSize), value < UInt64(offsets.count) else {
            throw Failure(reason: "a reference past the object table at \(offset)")
        }
        return Int(value)
    }

    private mutating func object(_ number: Int, depth: Int) throws(Failure) -> ValueNode {
        guard depth < Self.maximumDepth else { throw Failure(reason: "nesting deeper than \(Self.maximumDepth)") }
        // Shared objects are read once per reference, so objects that reference one another many times over (a few
        // hundred bytes can describe 2^100 paths) run out of the budget instead of running forever.
        guard budget.spend() else { return ValueNode(kind: .truncated) }
        guard ancestors.insert(number).inserted else { throw Failure(reason: "object \(number) contains itself") }
        defer { ancestors.remove(number) }
        let offset = offsets[number]
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return ValueNode(kind: .null)
            case 0x08: return ValueNode(kind: .scalar, value: "false")
            case 0x09: return ValueNode(kind: .scalar, value: "true")
            default: throw Failure(reason: "unknown marker 0x\(String(marker, radix: 16)) at \(offset)")
            }
        case 0x1: return ValueNode(kind: .scalar, value: try integer(marker: marker, at: offset))
        case 0x2:
            let size = 1 << Int(marker & 0x0F)
            guard let raw = unsigned(at: offset + 1, size: size), size == 4 || size == 8 else {
                throw Failure(reason: "a bad real at \(offset)")
            }
            let value = size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)
            return ValueNode(kind: .scalar, value: "\(value)")
        case 0x3:
            guard marker == 0x33, let raw = unsigned(at: offset + 1, size: 8) else {
                throw Failure(reason: "a bad date at \(offset)")
            }
            return ValueNode(kind: .scalar, typeName: "Date", value: "\(Double(bitPattern: raw))")
        case 0x4:
            let (count, start) = try length(marker: marker, at: offset)
            guard start + count <= bytes.count else { throw Failure(reason: "data past the end at \(offset)") }
            return ValueNode(
                kind: .string, typeName: "Data",
                value: bytes[start..<(start + count)].map { String($0, radix: 16).leftPadded(to: 2) }.joined())
        case 0x5, 0x6:
            let (count, start) = try length(marker: marker, at: offset)
            let byteCount = marker >> 4 == 0x6 ? count * 2 : count
            guard start + byteCount <= bytes.count else { throw Failure(reason: "a string past the end at \(offset)") }
            let text: String
            if marker >> 4 == 0x5 {
                text = String(decoding: bytes[start..<(start + byteCount)], as: UTF8.self)
            } else {
                let units = stride(from: start, to: start + byteCount, by: 2).map {
                    UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
                }
                text = String(decoding: units, as: UTF16.self)
            }
            return text == "$null" ? ValueNode(kind: .null) : ValueNode(kind: .string, value: text)
        case 0x8:
            let size = Int(marker & 0x0F) + 1
            guard let value = unsigned(at: offset + 1, size: size) else {
                throw Failure(reason: "a bad UID at \(offset)")
            }
            return ValueNode(kind: .scalar, typeName: "UID", value: "\(value)")
        case 0xA, 0xC:
            let (count, start) = try length(marker: marker, at: offset)
            guard count <= (bytes.count - start) / referenceSize else {
                throw Failure(reason: "an array past the end at \(offset)")
            }
            var children: [ValueNode] = []
            for index in 0..<count where !budget.isExhausted {
                children.append(try object(try reference(at: start + index * referenceSize), depth: depth + 1))
            }
            return ValueNode(kind: marker >> 4 == 0xA ? .collection : .set, children: children)
        case 0xD:
            let (count, start) = try length(marker: marker, at: offset)
            guard count <= (bytes.count - start) / referenceSize / 2 else {
                throw Failure(reason: "a dictionary past the end at \(offset)")
            }
            var children: [ValueNode] = []
            for index in 0..<count where !budget.isExhausted {
                let key = try object(try reference(at: start + index * referenceSize), depth: depth + 1)
                var value = try object(try reference(at: start + (count + index) * referenceSize), depth: depth + 1)
                value.label = key.kind == .string ? key.value : LineRenderer().render(key)
                children.append(value)
            }
            return ValueNode(kind: .dictionary, children: children)
        default:
            throw Failure(reason: "unknown marker 0x\(String(marker, radix: 16)) at \(offset)")
        }
    }

    /// 1, 2 and 4-byte integers are unsigned, 8-byte ones signed, 16-byte ones (values above Int64.max) unsigned.
    private func integer(marker: UInt8, at offset: Int) throws(Failure) -> String {
        let size = 1 << Int(marker & 0x0F)
        switch size {
        case 1, 2, 4:
            guard let value = unsigned(at: offset + 1, size: size) else { break }
            return "\(value)"
        case 8:
            guard let value = unsigned(at: offset + 1, size: 8) else { break }
            return "\(Int64(bitPattern: value))"
        case 16:
            guard let high = unsigned(at: offset + 1, size: 8), let low = unsigned(at: offset + 9, size: 8) else {
                break
            }
            if high == 0 { return "\(low)" }
            if high == .max, low >= 1 << 63 { return "\(Int64(bitPattern: low))" }
            throw Failure(reason: "a 128-bit integer at \(offset) does not fit in 64 bits")
        default: break
        }
        throw Failure(reason: "a bad integer at \(offset)")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
