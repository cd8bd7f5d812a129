import CByteScan
import PostmortemCore

/// Finds which of a fixed set of markers (at most 64) occur in a log, in one pass over its bytes. Each marker is
/// keyed by its rarest pair of bytes (``ByteSearch/commonness(_:)`` of each, multiplied: `Sa` in `Sanitizer`, `r:` in
/// `Fatal error: `), a marker of one byte by each pair it starts. The pass is C's (`postmortem_marker_scan`): 16
/// positions at a time are tested against the key pairs left to find with byte shuffles, and only the few that may
/// start one are compared with the markers keyed by it. (Keyed by single bytes and read a byte at a time, the
/// upper-case letters and colons of a log started a comparison at one byte in twenty, and the scan was a tenth of a
/// folder of logs' time.)
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

    private let names: [String]
    private let markerBytes: [UInt8]
    /// The key pair of each entry (first byte times 256 plus second), ascending; a marker of one byte has an entry under
    /// each of the 256 pairs it starts.
    private let pairs: [UInt16]
    /// For each entry, one after the other: its marker's index, where the marker's bytes start in `markerBytes`, how
    /// many there are, and where its key pair lies in them (four runs of `pairs.count` numbers).
    private let entries: [Int32]
    /// Every marker's bit: a scan that has found them all is done.
    private let everyMarker: UInt64
    /// The bits of the markers of one byte.
    private let singleMarkers: UInt64

    init(markers: [String]) {
        precondition(markers.count <= 64, "a MarkerScan holds at most 64 markers")
        var markerBytes: [UInt8] = []
        var keyed: [(pair: UInt16, index: Int, start: Int, length: Int, keyOffset: Int)] = []
        for (index, marker) in markers.enumerated() {
            let bytes = Array(marker.utf8)
            guard let first = bytes.first else { continue }
            let start = markerBytes.count
            markerBytes += bytes
            guard bytes.count > 1 else {
                for next in 0...255 { keyed.append((UInt16(first) << 8 | UInt16(next), index, start, 1, 0)) }
                continue
            }
            func rarity(_ offset: Int) -> Int {
                ByteSearch.commonness(bytes[offset]) * ByteSearch.commonness(bytes[offset + 1])
            }
            let keyOffset = (0..<bytes.count - 1).min { rarity($0) < rarity($1) } ?? 0
            let pair = UInt16(bytes[keyOffset]) << 8 | UInt16(bytes[keyOffset + 1])
            keyed.append((pair, index, start, bytes.count, keyOffset))
        }
        keyed.sort { $0.pair < $1.pair }
        self.names = markers
        self.markerBytes = markerBytes
        pairs = keyed.map(\.pair)
        entries =
            keyed.map { Int32($0.index) } + keyed.map { Int32($0.start) } + keyed.map { Int32($0.length) }
            + keyed.map { Int32($0.keyOffset) }
        everyMarker = keyed.reduce(0) { $0 | 1 << UInt64($1.index) }
        singleMarkers = keyed.reduce(0) { $1.length == 1 ? $0 | 1 << UInt64($1.index) : $0 }
    }

    /// The markers that occur in `bytes`.
    /// - Complexity: O(n) in the length of `bytes`, plus a comparison at each position that starts a marker's key pair.
    func markers(in bytes: [UInt8]) -> Found {
        let count = pairs.count
        let found = markerBytes.withUnsafeBufferPointer { markerBytes in
            pairs.withUnsafeBufferPointer { pairs in
                entries.withUnsafeBufferPointer { entries in
                    var table = postmortem_marker_table(
                        marker_bytes: markerBytes.baseAddress, pairs: pairs.baseAddress,
                        indices: entries.baseAddress, starts: entries.baseAddress.map { $0 + count },
                        lengths: entries.baseAddress.map { $0 + 2 * count },
                        key_offsets: entries.baseAddress.map { $0 + 3 * count }, entry_count: Int32(count),
                        every_marker: everyMarker, single_markers: singleMarkers)
                    return bytes.withUnsafeBufferPointer { text in
                        postmortem_marker_scan(&table, text.baseAddress, text.count)
                    }
                }
            }
        }
        return Found(names: names, bits: found)
    }
}
