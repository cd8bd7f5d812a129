import Foundation
import TestSupport
import Testing

@testable import CrashLogs

/// A frame's place as logs write it (`FILE:LINE`, `FILE:LINE:COLUMN`), read by the reader over its bytes and by the
/// test over the string's characters, on places made of few pieces (colons, digits, blanks, a path, a letter that is
/// not ASCII) so that edge cases recur.
@Suite("Places in frame lines")
struct SourceInLogParsingTests {
    /// The number after the last `:` of `text` (one to nine digits, the `:` not first), and what comes before it.
    static func number(_ text: Substring) -> (value: Int, before: Substring)? {
        guard let colon = text.lastIndex(of: ":"), colon > text.startIndex else { return nil }
        let digits = text[text.index(after: colon)...]
        guard (1...9).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return (Int(digits)!, text[..<colon])
    }

    static func expected(_ place: String) -> SourceInLog? {
        guard let last = number(Substring(place)) else { return nil }
        let line = number(last.before) ?? last
        return SourceInLog(file: String(line.before), line: line.value)
    }

    @Test(arguments: 0..<4)
    func placesReadAsTheTestReadsThem(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pieces = [":", "1", "42", "1234567890", "/src/app.c", " ", "é", "a", "::", "0"]
        var read = 0
        for _ in 0..<3_000 {
            let place = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                pieces[Int.random(in: 0..<pieces.count, using: &random)]
            }.joined()
            let expected = Self.expected(place)
            #expect(SourceInLog(parsing: place) == expected, "\(place)")
            read += expected == nil ? 0 : 1
        }
        #expect(read > 80, "too few places held a line")
    }
}
