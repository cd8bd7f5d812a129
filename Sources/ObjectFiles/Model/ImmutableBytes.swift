import Glibc
import PostmortemCore

/// Bytes that never move or change: a file mapped read-only, or a copy made once. Compact indexes
/// (the on-disk index cache, a unit's lookup tables) are read from them in place.
///
/// Every read is bounds-checked and little-endian; a read past the end gives 0 (or an empty string),
/// never a trap, so damaged bytes can give wrong answers but cannot take the process down. Callers
/// detect damage with ``checksum(_:)``.
package final class ImmutableBytes: @unchecked Sendable {
    @usableFromInline let base: UnsafeRawBufferPointer
    private let isMapped: Bool
    /// The bytes these are a part of, kept alive as long as these are (see ``init(_:of:)``).
    private let owner: ImmutableBytes?
    /// The file mapped, for messages; `(memory)` for a copy.
    package let path: String

    /// A copy of `bytes`.
    package init(_ bytes: [UInt8]) {
        path = "(memory)"
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        copy.copyBytes(from: bytes)
        base = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[0..<bytes.count])
        isMapped = false
        owner = nil
    }

    /// `count` bytes written once by `filling`, which must write every byte: tables built to be read as a file of
    /// them is, with no copy. Pages the allocator takes from the system are resident only once written.
    package init(count: Int, filling: (UnsafeMutableRawBufferPointer) -> Void) {
        path = "(memory)"
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        filling(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
        base = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<count])
        isMapped = false
        owner = nil
    }

    /// The bytes of `range` of `owner`, read in place (no copy): a file inside another, such as a minidump inside a
    /// multipart upload. `range` is clamped to `owner`'s bytes.
    package init(_ range: Range<Int>, of owner: ImmutableBytes) {
        let lower = min(max(range.lowerBound, 0), owner.count)
        let upper = min(max(range.upperBound, lower), owner.count)
        base = UnsafeRawBufferPointer(rebasing: owner.base[lower..<upper])
        isMapped = owner.isMapped
        self.owner = owner
        path = owner.path
    }

    /// The whole file at `path`, mapped read-only.
    /// - Throws: ``ObjectFileError`` when it cannot be opened or mapped, or is a directory.
    package convenience init(mapping path: String) throws(ObjectFileError) {
        try self.init(mapping: ObjectFileError.opening(path))
    }

    /// The whole of `file`, mapped read-only; the file stays open as long as its opener keeps it.
    init(mapping file: FileSystem.OpenFile) throws(ObjectFileError) {
        path = file.path
        if file.isDirectory { throw ObjectFileError(.isDirectory, path: path, detail: "") }
        do { base = try file.map() } catch { throw ObjectFileError(.cannotOpen, path: path, detail: error.detail) }
        isMapped = true
        owner = nil
    }

    deinit {
        if owner != nil { return }
        if isMapped {
            FileSystem.unmap(base)
        } else {
            base.baseAddress.map { UnsafeMutableRawPointer(mutating: $0).deallocate() }
        }
    }

    /// The address of the first byte, valid as long as this object lives; for C libraries that read
    /// the bytes in place (libdwarf's sections). `nil` when there are no bytes.
    package var baseAddress: UnsafeRawPointer? { base.baseAddress }

    /// The number of bytes.
    package var count: Int { base.count }

    /// Whether these are a file's bytes, mapped (not a copy).
    package var isMappedFile: Bool { isMapped }

    /// A little-endian reader of the bytes (``ByteReader``), whose reads past the end give `nil`.
    @inlinable package var reader: ByteReader { ByteReader(bytes: base) }

    /// The byte at `offset`; 0 past the end.
    @inlinable package func u8(at offset: Int) -> UInt8 {
        reader.u8(at: offset) ?? 0
    }

    /// The little-endian u32 at `offset`; 0 when it does not fit.
    @inlinable package func u32(at offset: Int) -> UInt32 {
        reader.u32(at: offset) ?? 0
    }

    /// The little-endian u64 at `offset`; 0 when it does not fit.
    @inlinable package func u64(at offset: Int) -> UInt64 {
        reader.u64(at: offset) ?? 0
    }

    /// The unsigned LEB128 number at `offset` and the offset after it; a number the bytes end inside reads as 0, with
    /// the end of the bytes after it (so that a walk over damaged bytes stops).
    @inlinable @inline(__always) package func uleb(at offset: Int) -> (value: UInt64, next: Int) {
        reader.uleb(at: offset) ?? (0, max(base.count, offset + 1))
    }

    /// The bytes of the NUL-terminated string at `offset` (without its NUL); empty when `offset` is outside the bytes.
    package func stringRange(at offset: Int) -> Range<Int> {
        guard offset >= 0, offset < base.count else { return 0..<0 }
        let stop =
            memchr(base.baseAddress! + offset, 0, base.count - offset).map { UnsafeRawPointer($0) - base.baseAddress! }
            ?? base.count
        return offset..<stop
    }

    /// The NUL-terminated UTF-8 string at `offset`, ending at `limit` at the latest.
    package func string(at offset: Int, limit: Int? = nil) -> String {
        let end = min(limit ?? base.count, base.count)
        guard offset >= 0, offset < end else { return "" }
        // memchr rather than a loop over the bytes: Swift names run to hundreds of bytes, and a batch reads thousands.
        let stop =
            memchr(base.baseAddress! + offset, 0, end - offset).map { UnsafeRawPointer($0) - base.baseAddress! } ?? end
        return String(decoding: UnsafeRawBufferPointer(rebasing: base[offset..<stop]), as: UTF8.self)
    }

    /// A copy of the bytes in `range` (clamped to the bytes there are).
    package func bytes(_ range: Range<Int>) -> [UInt8] {
        let clamped = range.clamped(to: 0..<base.count)
        return Array(base[clamped])
    }

    /// Whether the NUL-terminated string at `offset` equals `wanted` (which has no NUL).
    package func stringEquals(at offset: Int, _ wanted: [UInt8]) -> Bool {
        wanted.withUnsafeBufferPointer { stringEquals(at: offset, $0) }
    }

    /// Whether the NUL-terminated string at `offset` equals the bytes of `wanted` (which has no NUL).
    package func stringEquals(at offset: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset >= 0, offset <= base.count - wanted.count - 1 else { return false }
        guard wanted.count == 0 || memcmp(base.baseAddress! + offset, wanted.baseAddress!, wanted.count) == 0 else {
            return false
        }
        return base[offset + wanted.count] == 0
    }

    /// A 64-bit checksum of the bytes in `range` (clamped), to detect damaged or truncated data; not cryptographic.
    /// - Complexity: O(range), four independent lanes of 8-byte words.
    package func checksum(_ range: Range<Int>) -> UInt64 {
        let clamped = range.clamped(to: 0..<base.count)
        return Self.checksum(UnsafeRawBufferPointer(rebasing: base[clamped]))
    }

    /// A 64-bit digest of all the bytes, to tell files apart by their content (the index cache's key): the rounds
    /// and merge of xxHash64, whose rotations carry every input bit to every output bit (``checksum(_:)``'s lanes only
    /// carry them upwards, enough to detect damage, not to name content). Not cryptographic.
    /// - Complexity: O(count), four independent lanes of 8-byte words.
    package func contentDigest() -> UInt64 {
        let prime1: UInt64 = 0x9E37_79B1_85EB_CA87, prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        let prime3: UInt64 = 0x1656_67B1_9E37_79F9, prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
        let prime5: UInt64 = 0x27D4_EB2F_1656_67C5
        func rotated(_ value: UInt64, _ bits: UInt64) -> UInt64 { value << bits | value >> (64 - bits) }
        func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
            rotated(accumulator &+ input &* prime2, 31) &* prime1
        }
        let bytes = base, count = bytes.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var lanes: (UInt64, UInt64, UInt64, UInt64) = (prime1 &+ prime2, prime2, 0, 0 &- prime1)
            while offset + 32 <= count {
                lanes.0 = round(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                lanes.1 = round(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                lanes.2 = round(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
                lanes.3 = round(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
                offset += 32
            }
            hash = rotated(lanes.0, 1) &+ rotated(lanes.1, 7) &+ rotated(lanes.2, 12) &+ rotated(lanes.3, 18)
            for lane in [lanes.0, lanes.1, lanes.2, lanes.3] { hash = (hash ^ round(0, lane)) &* prime1 &+ prime4 }
        } else {
            hash = prime5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash =
                rotated(hash ^ round(0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)), 27)
                &* prime1 &+ prime4
            offset += 8
        }
        while offset < count {
            hash = rotated(hash ^ UInt64(bytes[offset]) &* prime5, 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        hash = hash &* prime3
        hash ^= hash >> 32
        return hash
    }

    /// The checksum of ``checksum(_:)`` over `bytes`.
    package static func checksum(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    private static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (
            0xCBF2_9CE4_8422_2325, 0x8422_2325_CBF2_9CE4, 0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F
        )
        var offset = 0
        let count = bytes.count
        while offset + 32 <= count {
            lanes.0 = (lanes.0 ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime
            lanes.1 = (lanes.1 ^ bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)) &* prime
            lanes.2 = (lanes.2 ^ bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)) &* prime
            lanes.3 = (lanes.3 ^ bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)) &* prime
            offset += 32
        }
        var hash = lanes.0 ^ (lanes.1 &* 31) ^ (lanes.2 &* 961) ^ (lanes.3 &* 29791) ^ UInt64(count)
        while offset < count {
            hash = (hash ^ UInt64(bytes[offset])) &* prime
            offset += 1
        }
        // Mix so that every input bit reaches every output bit.
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return hash
    }
}
