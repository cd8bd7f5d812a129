import PostmortemCore
import TestSupport
import Testing

@testable import CrashLogs

/// The byte search every reader's `includes`, `range(of:)` and `firstByteRange(of:)` go through: where `memchr` and `memcmp` find a word,
/// against a search of the test's own, on texts made of few letters (so words recur, overlap and sit at both ends),
/// ASCII and not, in strings and in slices of them.
@Suite("Byte search")
struct ByteSearchTests {
    static func naive(_ needle: [UInt8], in text: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= text.count else { return nil }
        return (0...(text.count - needle.count)).first { Array(text[$0..<$0 + needle.count]) == needle }
    }

    static func naiveLast(_ needle: [UInt8], in text: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= text.count else { return nil }
        return (0...(text.count - needle.count)).last { Array(text[$0..<$0 + needle.count]) == needle }
    }

    /// The byte offset of `range` in `text`.
    static func offset<Text: StringProtocol>(_ range: Range<Text.Index>?, in text: Text) -> Int? {
        range.map { text.utf8.distance(from: text.utf8.startIndex, to: $0.lowerBound) }
    }

    @Test func findsWhatASearchByHandFinds() {
        var generator = SeededGenerator(seed: 0x5EA2C4)
        let alphabet: [String] = ["a", "b", " ", "#", "é", "0", "x", "\u{1F600}"]
        var checked = 0
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }.joined()
            let needle = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }.joined()
            // Sliced text too: a substring's bytes do not start at its string's.
            let dropped = Int.random(in: 0...min(3, text.count), using: &generator)
            let slice = Substring(text).dropFirst(dropped)
            let expected = Self.naive(Array(needle.utf8), in: Array(slice.utf8))
            let found = ByteSearch.firstOffset(of: Substring(needle).utf8, in: slice.utf8)
            #expect(found == expected, "\(needle) in \(slice)")
            #expect(ByteSearch.contains(needle, in: Array(slice.utf8)) == (expected != nil), "\(needle) in \(slice)")
            #expect(Self.offset(slice.firstByteRange(of: needle), in: slice) == expected)
            // A string's own searches (not through a substring), first and last.
            let string = String(slice)
            let last = Self.naiveLast(Array(needle.utf8), in: Array(slice.utf8))
            #expect(Self.offset(string.firstByteRange(of: needle), in: string) == expected, "\(needle) in \(string)")
            #expect(Self.offset(string.lastRange(of: needle), in: string) == last, "\(needle) in \(string)")
            #expect(Self.offset(slice.lastRange(of: needle), in: slice) == last, "\(needle) in \(slice)")
            #expect(ByteSearch.lastOffset(of: needle.utf8.span, in: string.utf8.span) == last, "\(needle) in \(string)")
            let firstByte = needle.utf8.first!
            #expect(
                ByteSearch.firstOffset(of: firstByte, in: string.utf8.span)
                    == string.utf8.firstIndex(of: firstByte).map {
                        string.utf8.distance(from: string.utf8.startIndex, to: $0)
                    })
            #expect(string.includes(needle) == (expected != nil) && slice.includes(needle) == (expected != nil))
            #expect(string.containsBytes(needle) == (expected != nil))
            checked += expected == nil ? 0 : 1
        }
        #expect(checked > 500, "too few texts held their word")
        #expect(ByteSearch.firstOffset(of: Substring("").utf8, in: Substring("abc").utf8) == nil)
        #expect(ByteSearch.firstOffset(of: Substring("abcd").utf8, in: Substring("abc").utf8) == nil)
        #expect(!ByteSearch.contains("", in: Array("abc".utf8)))
    }

    @Test func findsTheFirstByteFromAnOffsetAsFirstIndexDoes() {
        var generator = SeededGenerator(seed: 0xB17E)
        for _ in 0..<3_000 {
            let bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                UInt8.random(in: 8...12, using: &generator)
            }
            let start = Int.random(in: -2...bytes.count + 2, using: &generator)
            let expected = start < 0 || start >= bytes.count ? nil : bytes[start...].firstIndex(of: 10)
            #expect(ByteSearch.firstOffset(of: 10, in: bytes, from: start) == expected, "from \(start) in \(bytes)")
            // The same over a string's bytes, and a slice of them (offsets from the slice's start).
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(ByteSearch.firstOffset(of: 10, in: Substring(text).utf8, from: start) == expected)
            let slice = Substring(text).dropFirst(1)
            let inSlice = start < 0 || start >= bytes.count - 1 ? nil : bytes[(start + 1)...].firstIndex(of: 10)
            #expect(ByteSearch.firstOffset(of: 10, in: slice.utf8, from: start) == inSlice.map { $0 - 1 })
            #expect(text.containsByte(10) == bytes.contains(10))
        }
    }

    /// A machine-readable row's fields, split over bytes, are the fields a split by character gives (texts without
    /// combining marks, where the two differ by design: a mark after a separator is no character of its own by bytes).
    @Test func splitsFieldsAsASplitByCharacterDoes() {
        var generator = SeededGenerator(seed: 0xF1E1D)
        let alphabet: [String] = ["a", "|", "|", " ", "é", "0", "\u{1F600}"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }.joined()
            let dropped = Int.random(in: 0...min(2, text.count), using: &generator)
            let slice = Substring(text).dropFirst(dropped)
            let expected = slice.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            #expect(slice.fields(separatedBy: UInt8(ascii: "|")).map(String.init) == expected, "\(slice)")
            #expect(String(slice).fields(separatedBy: UInt8(ascii: "|")).map(String.init) == expected, "\(slice)")
        }
    }

    /// A frame's number read over bytes: the digits at the cursor, as `Int` reads them, the cursor after them; none
    /// past 18 digits.
    @Test func readsADecimalAsIntReadsIt() {
        var generator = SeededGenerator(seed: 0xDEC1)
        for _ in 0..<2_000 {
            let lead = String(repeating: " ", count: Int.random(in: 0...2, using: &generator))
            let digits = String(
                (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                    Character(String(Int.random(in: 0...9, using: &generator)))
                })
            let text = lead + digits + ["", " x", "x", "#"].randomElement(using: &generator)!
            var cursor = lead.utf8.count
            let read = LineBytes.decimal(in: text.utf8.span, at: &cursor)
            if digits.count > 18 {
                #expect(read == nil, "\(text)")
            } else {
                #expect(read?.value == (digits.isEmpty ? 0 : Int(digits)) && read?.digits == digits.count, "\(text)")
                #expect(cursor == lead.utf8.count + digits.count, "\(text)")
            }
        }
    }
}
