import PostmortemCore

/// The entries of a Mach-O `__unwind_info` section (Apple's compact unwind format, version 1): for each run of code,
/// where it starts (relative to `__TEXT`), how long it runs (to the next entry, the last to the first-level index's
/// closing address) and its 32-bit encoding. Read as libunwind and lld lay it out: a first-level index of second-level
/// pages, each "regular" (address and encoding pairs) or "compressed" (24-bit offsets from the page's first address and
/// 8-bit indexes into the section's common encodings, then the page's own).
struct CompactUnwindTable {
    struct Entry: Equatable {
        var address: UInt32
        var length: UInt32
        var encoding: UInt32
    }

    /// The entries, by address; runs of no length (a duplicate address) left out.
    let entries: [Entry]

    /// More entries than a page can hold (a page is 4 KB): a larger count is damage.
    static let pageEntryLimit = 1024

    /// The table of `bytes`; `nil` with the reason when the section is not one this reader knows or lies about its
    /// sizes.
    static func read(_ bytes: [UInt8]) -> Result<CompactUnwindTable, CompactUnwindFailure> {
        bytes.withUnsafeBytes { buffer in
            let reader = ByteReader(bytes: buffer)
            guard let version = reader.u32(at: 0), version == 1 else {
                return .failure(
                    CompactUnwindFailure(
                        "version \(reader.u32(at: 0).map(String.init) ?? "?") is not the one known (1)"))
            }
            guard let commonOffset = reader.u32(at: 4), let commonCount = reader.u32(at: 8),
                let indexOffset = reader.u32(at: 20),
                let indexCount = reader.u32(at: 24), indexCount <= UInt32(buffer.count / 12)
            else {
                return .failure(CompactUnwindFailure("its header is cut short or counts more pages than it holds"))
            }
            let common = (0..<Int(min(commonCount, 256))).map { reader.u32(at: Int(commonOffset) + 4 * $0) }
            var starts: [(address: UInt32, encoding: UInt32)] = []
            var end: UInt32 = 0
            for page in 0..<Int(indexCount) {
                let entry = Int(indexOffset) + 12 * page
                guard let first = reader.u32(at: entry), let pageOffset = reader.u32(at: entry + 4) else {
                    return .failure(CompactUnwindFailure("its index is cut short at page \(page)"))
                }
                end = first
                // The closing entry points at no page: it gives the end of the last run.
                if pageOffset == 0 { break }
                let start = Int(pageOffset)
                guard let kind = reader.u32(at: start), let entriesOffset = reader.u16(at: start + 4),
                    let count = reader.u16(at: start + 6),
                    Int(count) <= pageEntryLimit
                else {
                    return .failure(CompactUnwindFailure("its page \(page) is cut short or counts too many entries"))
                }
                switch kind {
                case 2: // regular: address and encoding
                    for index in 0..<Int(count) {
                        let at = start + Int(entriesOffset) + 8 * index
                        guard let address = reader.u32(at: at), let encoding = reader.u32(at: at + 4) else {
                            return .failure(CompactUnwindFailure("its page \(page) is cut short"))
                        }
                        starts.append((address, encoding))
                    }
                case 3: // compressed: offset from the page's first address and an encoding index
                    guard let encodingsOffset = reader.u16(at: start + 8),
                        let encodingsCount = reader.u16(at: start + 10)
                    else {
                        return .failure(CompactUnwindFailure("its page \(page) is cut short"))
                    }
                    for index in 0..<Int(count) {
                        guard let packed = reader.u32(at: start + Int(entriesOffset) + 4 * index) else {
                            return .failure(CompactUnwindFailure("its page \(page) is cut short"))
                        }
                        let encodingIndex = Int(packed >> 24)
                        let encoding: UInt32?
                        if encodingIndex < common.count {
                            encoding = common[encodingIndex]
                        } else if encodingIndex - common.count < Int(encodingsCount) {
                            encoding = reader.u32(at: start + Int(encodingsOffset) + 4 * (encodingIndex - common.count))
                        } else {
                            encoding = nil
                        }
                        guard let encoding else {
                            return .failure(
                                CompactUnwindFailure(
                                    "its page \(page) names encoding \(encodingIndex), which it does not hold"))
                        }
                        starts.append((first &+ (packed & 0xFF_FFFF), encoding))
                    }
                default:
                    return .failure(CompactUnwindFailure("its page \(page) is of kind \(kind), not one known (2, 3)"))
                }
            }
            var entries: [Entry] = []
            entries.reserveCapacity(starts.count)
            for (index, start) in starts.enumerated() {
                let next = index + 1 < starts.count ? starts[index + 1].address : end
                guard next > start.address else { continue }
                entries.append(Entry(address: start.address, length: next - start.address, encoding: start.encoding))
            }
            return .success(CompactUnwindTable(entries: entries))
        }
    }
}

/// Why an `__unwind_info` section was not read, in words.
struct CompactUnwindFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
