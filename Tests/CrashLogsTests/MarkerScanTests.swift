import TestSupport
import Testing

@testable import CrashLogs

/// The one-pass scan for format markers against a search for each marker on its own, over texts made of the markers'
/// pieces (so that near misses abound: a marker cut short at the end, one key byte among many) and the log readers'
/// own marker set.
@Suite("Marker scan")
struct MarkerScanTests {
    /// Short texts (read a position at a time) and long ones (16 positions at a time, then the rest one at a time;
    /// pairs found on the way stop being looked for), the markers cut short among their pieces.
    @Test(arguments: [(0, 12), (1, 12), (2, 12), (3, 12), (4, 300), (5, 300)])
    func theScanFindsWhatASearchForEachMarkerFinds(seed: UInt64, pieceCount: Int) {
        var random = SeededGenerator(seed: seed)
        let markers = CrashLogParser.readers.flatMap { $0.markers } + ["x", "::", "0x0x", "\u{2713}ok"]
        let scan = MarkerScan(markers: Array(Set(markers)).sorted())
        let pieces = markers + [" ", "\n", "0", "x", "[", "#", "Thread", "Sanitize", "\u{2713}", "OS", "|"]
        for _ in 0..<(pieceCount > 12 ? 60 : 1_000) {
            var text = ""
            for _ in 0..<Int.random(in: 0...pieceCount, using: &random) {
                let piece = pieces[Int.random(in: 0..<pieces.count, using: &random)]
                // Part of a piece as often as the whole: markers cut short.
                text += Bool.random(using: &random) ? piece : String(piece.prefix(piece.count / 2))
            }
            let found = scan.markers(in: Array(text.utf8))
            for marker in Set(markers) {
                #expect(
                    found.contains(marker) == Self.occurs(marker, in: text), "\(marker) in \(text.debugDescription)")
            }
            // Each reader's markers as one set: any of them found.
            for reader in CrashLogParser.readers {
                let set = scan.set(of: reader.markers)
                #expect(
                    found.containsAny(of: set) == reader.markers.contains { Self.occurs($0, in: text) },
                    "\(reader.markers) in \(text.debugDescription)")
            }
        }
    }

    /// Whether `needle`'s bytes occur in `text`'s.
    static func occurs(_ needle: String, in text: String) -> Bool {
        let haystack = Array(text.utf8), pattern = Array(needle.utf8)
        guard !pattern.isEmpty, pattern.count <= haystack.count else { return false }
        return (0...(haystack.count - pattern.count)).contains {
            haystack[$0..<$0 + pattern.count].elementsEqual(pattern)
        }
    }
}
