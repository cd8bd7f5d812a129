import Glibc

/// Where one run of bytes first occurs in another, found with the C library's vectorised `memchr`, for the readers
/// that look for words in every line of every log and cannot touch memory themselves.
package enum ByteSearch {
    /// The offset in `text` where `needle` first starts; `nil` when it does not occur (or `needle` is empty).
    package static func firstOffset(of needle: Substring.UTF8View, in text: Substring.UTF8View) -> Int? {
        // Over spans (native strings are stored contiguously): asked of nearly every line of every log, where
        // `withContiguousStorageIfAvailable`'s closures cost more than the search.
        firstOffset(of: needle.span, in: text.span)
    }

    /// The offset in `text` where `needle` first starts; `nil` when it does not occur (or `needle` is empty).
    package static func firstOffset(of needle: Span<UInt8>, in text: Span<UInt8>) -> Int? {
        guard !needle.isEmpty, needle.count <= text.count else { return nil }
        return text.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { pattern in offset(of: pattern, in: haystack) }
        }
    }

    /// The offset in `text` where `needle` last starts; `nil` when it does not occur (or `needle` is empty).
    package static func lastOffset(of needle: Span<UInt8>, in text: Span<UInt8>) -> Int? {
        guard !needle.isEmpty, needle.count <= text.count else { return nil }
        // The needle's first byte looked for from the end without bounds checks, memcmp for the whole: a frame line's
        // `(BuildId: ` is looked for past a hundred bytes of path (glibc's memrchr is not in Swift's view of its
        // headers).
        return text.withUnsafeBufferPointer { haystack -> Int? in
            needle.withUnsafeBufferPointer { pattern -> Int? in
                guard let start = haystack.baseAddress, let bytes = pattern.baseAddress else { return nil }
                let first = bytes[0]
                var offset = haystack.count - pattern.count
                while offset >= 0 {
                    if start[offset] == first, memcmp(start + offset, bytes, pattern.count) == 0 { return offset }
                    offset -= 1
                }
                return nil
            }
        }
    }

    /// The offset of the first `byte` in `bytes` at or after `start`; `nil` when there is none (or `start` is past
    /// the end).
    package static func firstOffset(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        guard start >= 0, start < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base + start, Int32(byte), buffer.count - start)
            else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    /// The offset of the first `byte` in `bytes`; `nil` when there is none.
    package static func firstOffset(of byte: UInt8, in bytes: Span<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, Int32(byte), buffer.count) else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    /// The offset in `text` of the first `byte` at or after offset `start`; `nil` when there is none.
    package static func firstOffset(of byte: UInt8, in text: Substring.UTF8View, from start: Int = 0) -> Int? {
        let bytes = text.span
        guard start >= 0, start < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base + start, Int32(byte), buffer.count - start)
            else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    /// Whether `needle` occurs in `bytes`.
    package static func contains(_ needle: String, in bytes: [UInt8]) -> Bool {
        var pattern = needle
        return pattern.withUTF8 { pattern in bytes.withUnsafeBufferPointer { offset(of: pattern, in: $0) != nil } }
    }

    /// How often a byte turns up in log text, roughly: the lower, the rarer (a better byte to search for first).
    package static func commonness(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: " "): 9
        case UInt8(ascii: "e"), UInt8(ascii: "t"), UInt8(ascii: "a"), UInt8(ascii: "o"), UInt8(ascii: "i"),
            UInt8(ascii: "n"), UInt8(ascii: "s"), UInt8(ascii: "r"), UInt8(ascii: "h"), UInt8(ascii: "l"):
            8
        case UInt8(ascii: "x"), UInt8(ascii: "q"), UInt8(ascii: "z"), UInt8(ascii: "j"), UInt8(ascii: "k"),
            UInt8(ascii: "v"):
            4
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): 6
        // Rules and separators (`=====`, `-----`, `#0`) come in runs.
        case UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "#"):
            5
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): 3
        default: 1
        }
    }

    private static func offset(of pattern: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>)
        -> Int?
    {
        guard let start = haystack.baseAddress, let bytes = pattern.baseAddress, pattern.count > 0,
            pattern.count <= haystack.count
        else { return nil }
        // memchr for one byte, memcmp for the whole (glibc's memmem is not in Swift's view of its headers). The byte
        // is the needle's rarest in log text (``commonness(_:)``): lines are indented and spaced, and a sanitizer's
        // `==ERROR: ` anchored on `=` stopped at every byte of its `=====` rule.
        // (Chosen on every search: the first byte as rare as an upper-case letter ends the choice.)
        var anchor = 0, anchorCommonness = commonness(bytes[0])
        var offset = 1
        while anchorCommonness > 3, offset < pattern.count {
            let candidate = commonness(bytes[offset])
            if candidate < anchorCommonness { (anchor, anchorCommonness) = (offset, candidate) }
            offset += 1
        }
        let last = haystack.count - pattern.count
        var position = 0
        while position <= last {
            guard let found = memchr(start + position + anchor, Int32(bytes[anchor]), last - position + 1) else {
                return nil
            }
            let offset = UnsafeRawPointer(found) - UnsafeRawPointer(start) - anchor
            if pattern.count == 1 || memcmp(start + offset, bytes, pattern.count) == 0 { return offset }
            position = offset + 1
        }
        return nil
    }
}

extension String {
    /// Whether `needle` occurs in the string, compared as bytes: `contains(_:)` with a string goes through the
    /// string-processing library's character search, thousands of instructions a call.
    package func containsBytes(_ needle: String) -> Bool {
        ByteSearch.firstOffset(of: needle.utf8.span, in: utf8.span) != nil
    }

    /// Whether `byte` occurs in the string: the test a reader puts before its searches of a line, most lines of most
    /// logs holding none of the byte its words need.
    package func containsByte(_ byte: UInt8) -> Bool {
        // The string's own bytes, not a substring's view of them (which costs as much again as the search).
        utf8.span.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return memchr(base, Int32(byte), buffer.count) != nil
        }
    }
}
