import PostmortemCore

/// Reads of an index's bytes that answer as ``ObjectFiles/ImmutableBytes``'s do past the end (0, and the end after a
/// number cut short), made through ``ByteReader``: the optimizer copies the bodies of its small public functions into
/// the modules that call them, where each read through `ImmutableBytes`, a package type, stays a call (two, for a
/// LEB128 number), and lookups make hundreds of reads each.
extension ByteReader {
    @inline(__always) func u32OrZero(at offset: Int) -> UInt32 { u32(at: offset) ?? 0 }

    @inline(__always) func u64OrZero(at offset: Int) -> UInt64 { u64(at: offset) ?? 0 }

    @inline(__always) func ulebOrEnd(at offset: Int) -> (value: UInt64, next: Int) {
        uleb(at: offset) ?? (0, max(bytes.count, offset + 1))
    }
}
