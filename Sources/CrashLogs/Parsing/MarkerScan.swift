import PostmortemCore

/// Finds which of a fixed set of markers (at most 64) occur in a log, in one pass over its bytes. Each marker is
/// keyed by its rarest byte (punctuation or an upper-case letter where it has one, never a space), so most bytes
/// of a log cost one table lookup and only the few that are some marker's key are compared with the markers
/// keyed by them.
struct MarkerScan: Sendable {
    /// The markers found in one log.
    struct Found: Sendable {
        fileprivate let names: [String]
        fileprivate let bits: UInt64

        /// True when `marker` (one of the scan's markers) occurs.
        func contains(_ marker: String) -> Bool {
            guard let index = names.firstIndex(of: marker) else { return false }
            return bits & (1 << UInt64(index)) != 0
        }

        /// True when any marker of `set` (``MarkerScan/set(of:)``) occurs: one test, where ``contains(_:)`` compares
        /// the marker with the scan's markers one by one (asked for every format of every log).
        func containsAny(of set: MarkerSet) -> Bool { bits & set.bits != 0 }
    }

    /// Some of a scan's markers, as ``set(of:)`` names them.
    struct MarkerSet: Sendable {
        fileprivate let bits: UInt64
    }

    /// The scan's markers among `markers`, for ``Found/containsAny(of:)``; markers the scan does not hold are left out.
    func set(of markers: [String]) -> MarkerSet {
        MarkerSet(
            bits: markers.reduce(0) { bits, marker in
                names.firstIndex(of: marker).map { bits | 1 << UInt64($0) } ?? bits
            })
    }

    private struct Candidate: Sendable {
        /// The marker's index, its bytes' range in `markerBytes`, and where its key byte lies in it.
        var index: Int
        var bytes: Range<Int>
        var keyOffset: Int
    }

    private let names: [String]
    private let markerBytes: [UInt8]
    /// For each byte value, 1 when some marker is keyed by it.
    private let isKey: [UInt8]
    /// For each byte value, the range of `candidates` keyed by it (empty when none is).
    private let slots: [Range<Int>]
    private let candidates: [Candidate]
    /// Every marker's bit: a scan that has found them all is done.
    private let everyMarker: UInt64

    init(markers: [String]) {
        precondition(markers.count <= 64, "a MarkerScan holds at most 64 markers")
        var markerBytes: [UInt8] = []
        var keyed: [(key: UInt8, candidate: Candidate)] = []
        for (index, marker) in markers.enumerated() {
            let bytes = Array(marker.utf8)
            guard
                let keyOffset = bytes.indices.min(by: {
                    ByteSearch.commonness(bytes[$0]) < ByteSearch.commonness(bytes[$1])
                })
            else { continue }
            keyed.append(
                (
                    bytes[keyOffset],
                    Candidate(
                        index: index, bytes: markerBytes.count..<markerBytes.count + bytes.count, keyOffset: keyOffset)
                ))
            markerBytes += bytes
        }
        keyed.sort { $0.key < $1.key }
        var slots = [Range<Int>](repeating: 0..<0, count: 256)
        var start = 0
        while start < keyed.count {
            var end = start
            while end < keyed.count, keyed[end].key == keyed[start].key { end += 1 }
            slots[Int(keyed[start].key)] = start..<end
            start = end
        }
        self.names = markers
        self.markerBytes = markerBytes
        self.slots = slots
        self.isKey = slots.map { $0.isEmpty ? 0 : 1 }
        self.candidates = keyed.map(\.candidate)
        self.everyMarker = keyed.reduce(0) { $0 | 1 << UInt64($1.candidate.index) }
    }

    /// The markers that occur in `bytes`.
    /// - Complexity: O(n) in the length of `bytes`, plus a comparison at each byte that is some marker's key.
    func markers(in bytes: [UInt8]) -> Found {
        var found: UInt64 = 0
        // A key whose markers are all found is a key no more: a log's common punctuation stops costing comparisons
        // once its markers are seen, and the scan ends when every marker is. The table lives on the stack: an array's
        // element costs a bounds check and a load through its buffer at every byte of every log.
        var isKey = InlineArray<256, Bool>(repeating: false)
        for byte in 0..<256 where self.isKey[byte] != 0 { isKey[byte] = true }
        let text = bytes.span, slots = self.slots.span
        let candidates = self.candidates.span, markerBytes = self.markerBytes.span
        let count = text.count
        var position = 0
        while position < count {
            let byte = Int(text[position])
            guard isKey[byte] else {
                position += 1
                continue
            }
            let slot = slots[byte]
            var next = slot.lowerBound
            var slotDone = true
            while next < slot.upperBound {
                let candidate = candidates[next]
                next += 1
                let bit: UInt64 = 1 << UInt64(candidate.index)
                guard found & bit == 0 else { continue }
                let start = position - candidate.keyOffset
                guard start >= 0, start + candidate.bytes.count <= text.count else {
                    slotDone = false
                    continue
                }
                var matched = 0
                while matched < candidate.bytes.count,
                    text[start + matched] == markerBytes[candidate.bytes.lowerBound + matched]
                { matched += 1 }
                if matched == candidate.bytes.count { found |= bit } else { slotDone = false }
            }
            if slotDone {
                isKey[byte] = false
                if found == everyMarker { break }
            }
            position += 1
        }
        return Found(names: names, bits: found)
    }
}
