import ObjectFiles

/// A record of fixed size, stored as little-endian 64-bit words so that a table of them is read in place from a
/// mapping: the same bytes whether a symbol file was just parsed or its index was read from the index cache.
protocol StoredRecord {
    /// How many 64-bit words one record takes.
    static var wordCount: Int { get }
    /// The record whose words start at `offset` of `bytes` (bounds-checked: a word past the end reads as 0).
    init(_ bytes: ImmutableBytes, at offset: Int)
    /// Writes the record's words at the writer's position.
    func store(into words: inout StoredWordWriter)
}

extension StoredRecord {
    /// How many bytes one record takes.
    static var byteCount: Int { wordCount * 8 }
}

/// A table of records read in place from bytes: the records of ``SymbolFileIndex``.
struct StoredRecords<Record: StoredRecord>: RandomAccessCollection {
    private let bytes: ImmutableBytes
    private let offset: Int
    let count: Int

    /// The records stored in `range` of `bytes`; a range that does not hold whole records is cut to those it holds.
    init(_ bytes: ImmutableBytes, range: Range<Int>) {
        self.bytes = bytes
        let clamped = range.clamped(to: 0..<bytes.count)
        offset = clamped.lowerBound
        count = clamped.count / Record.byteCount
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Record {
        precondition(position >= 0 && position < count, "record \(position) of \(count)")
        return Record(bytes, at: offset + position * Record.byteCount)
    }

    /// The positions of `range` that are inside the table: what a record's run of other records (a function's lines)
    /// is read as, so that damaged numbers give fewer answers, never a trap.
    func clamped(_ range: Range<Int>) -> Range<Int> { range.clamped(to: 0..<count) }
}

/// Reads consecutive words of a stored record.
struct StoredWords {
    private let bytes: ImmutableBytes
    private var offset: Int

    init(_ bytes: ImmutableBytes, at offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    mutating func next() -> UInt64 {
        defer { offset += 8 }
        return bytes.u64(at: offset)
    }

    /// Two words, a half-open range; a damaged one (its end before its start, or past any file) reads as empty.
    mutating func range() -> Range<Int> {
        let lower = next(), upper = next()
        guard lower <= upper, upper <= UInt64(Int.max) else { return 0..<0 }
        return Int(lower)..<Int(upper)
    }

    /// Two words, a range or none (its start all ones).
    mutating func optionalRange() -> Range<Int>? {
        let lower = next(), upper = next()
        guard lower != .max else { return nil }
        guard lower <= upper, upper <= UInt64(Int.max) else { return 0..<0 }
        return Int(lower)..<Int(upper)
    }

    /// A word holding two 32-bit numbers, the first in its low half.
    mutating func pair() -> (UInt32, UInt32) {
        let word = next()
        return (UInt32(truncatingIfNeeded: word), UInt32(truncatingIfNeeded: word >> 32))
    }
}

/// Writes words, little-endian, into the bytes of an ``ImmutableBytes`` being made (``ImmutableBytes/init(count:filling:)``).
struct StoredWordWriter {
    private let bytes: UnsafeMutableRawBufferPointer
    /// The number of words written.
    private(set) var count = 0

    init(_ bytes: UnsafeMutableRawBufferPointer) {
        self.bytes = bytes
    }

    mutating func append(_ word: UInt64) {
        bytes.storeBytes(of: word.littleEndian, toByteOffset: count * 8, as: UInt64.self)
        count += 1
    }

    mutating func append(range: Range<Int>) {
        append(UInt64(range.lowerBound))
        append(UInt64(range.upperBound))
    }

    mutating func append(optionalRange range: Range<Int>?) {
        guard let range else {
            append(.max)
            append(.max)
            return
        }
        append(range: range)
    }

    mutating func append(pair first: UInt32, _ second: UInt32) {
        append(UInt64(first) | UInt64(second) << 32)
    }

    /// Writes `text` in the words from here on, its last word padded with zeros.
    mutating func append(text: [UInt8]) {
        for start in stride(from: 0, to: text.count, by: 8) {
            var word: UInt64 = 0
            for (shift, byte) in text[start..<min(start + 8, text.count)].enumerated() {
                word |= UInt64(byte) << (shift * 8)
            }
            append(word)
        }
    }
}
