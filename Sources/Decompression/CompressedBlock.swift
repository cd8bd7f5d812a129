internal import CCompression

/// One block of compressed bytes whose decompressed size is declared beside it, as an ELF file declares it for a
/// compressed section (`SHF_COMPRESSED`'s header, or `.zdebug_*`'s `ZLIB` prefix): decompressed in one piece into a
/// buffer of that size, and refused when it holds more or fewer bytes.
package enum CompressedBlock {
    /// A compression an ELF section may be in.
    package enum Kind: String, Sendable {
        /// zlib's format (a zlib header, deflate data, an Adler-32 trailer): `ELFCOMPRESS_ZLIB` and `.zdebug_*`.
        case zlib
        /// One or more zstd frames: `ELFCOMPRESS_ZSTD` (binutils 2.40's `--compress-debug-sections=zstd`).
        case zstd
    }

    /// Why a block could not be decompressed, in one line.
    package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong.
        package var detail: String
        /// The detail.
        package var description: String { detail }

        /// A failure saying `detail`.
        package init(detail: String) { self.detail = detail }
    }

    /// The `size` bytes `input` decompresses to.
    /// - Throws: ``Failure`` when the data is damaged, or decompresses to more or fewer than `size` bytes.
    package static func decompress(_ input: UnsafeRawBufferPointer, kind: Kind, size: Int) throws(Failure) -> [UInt8] {
        guard size >= 0 else { throw Failure(detail: "its header declares a negative size") }
        var problem: Failure?
        // Not zeroed first: every byte is written, or the array is dropped.
        let output = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            do throws(Failure) {
                try decompress(input, kind: kind, into: UnsafeMutableRawBufferPointer(buffer))
                count = size
            } catch {
                problem = error
                count = 0
            }
        }
        if let problem { throw problem }
        return output
    }

    /// Decompresses `input` into `target`, whose size is the declared one: on success every byte of it is written.
    /// - Throws: ``Failure`` when the data is damaged, or decompresses to more or fewer bytes than `target` holds.
    package static func decompress(
        _ input: UnsafeRawBufferPointer, kind: Kind, into target: UnsafeMutableRawBufferPointer
    )
        throws(Failure)
    {
        let problem =
            switch kind {
            case .zlib: inflate(input, into: target)
            case .zstd: decodeZstd(input, into: target)
            }
        if let problem { throw Failure(detail: problem) }
    }

    private static func sizeMismatch(_ produced: Int, _ declared: Int) -> String {
        "it decompresses to \(produced) bytes, not the \(declared) its header declares"
    }

    /// libdeflate decompresses a whole block into a buffer of its known size in about half zlib's time (a distribution's
    /// compressed debug sections are inflated whole on first use); zlib says what is wrong with a block it refuses.
    private static func inflate(_ input: UnsafeRawBufferPointer, into target: UnsafeMutableRawBufferPointer) -> String?
    {
        guard let decompressor = libdeflate_alloc_decompressor() else { return inflateByZlib(input, into: target) }
        defer { libdeflate_free_decompressor(decompressor) }
        var produced = 0
        let result = libdeflate_zlib_decompress(
            decompressor, input.baseAddress, input.count, target.baseAddress, target.count, &produced)
        switch result {
        case LIBDEFLATE_SUCCESS:
            // libdeflate stops at the end of the zlib stream: bytes left after it are not looked at, as zlib leaves them.
            return produced == target.count ? nil : sizeMismatch(produced, target.count)
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            return "it decompresses to more than the \(target.count) bytes its header declares"
        default:
            return inflateByZlib(input, into: target)
        }
    }

    private static func inflateByZlib(_ input: UnsafeRawBufferPointer, into target: UnsafeMutableRawBufferPointer)
        -> String?
    {
        var stream = z_stream()
        guard postmortem_inflate_init(&stream, 15) == Z_OK else { return "zlib could not start" }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(clamping: input.count)
        stream.next_out = target.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = UInt32(clamping: target.count)
        // An empty section has nothing to inflate into: one spare byte tells "more than declared" from "done".
        var spare: UInt8 = 0
        var status = CCompression.inflate(&stream, Z_FINISH)
        let produced = target.count - Int(stream.avail_out)
        if status == Z_BUF_ERROR || (status == Z_OK && stream.avail_out == 0) {
            // The buffer is full: the data ends here, or holds more than declared.
            withUnsafeMutablePointer(to: &spare) { stream.next_out = $0 }
            stream.avail_out = 1
            status = CCompression.inflate(&stream, Z_FINISH)
            if stream.avail_out == 0 {
                return "it decompresses to more than the \(target.count) bytes its header declares"
            }
        }
        switch status {
        case Z_STREAM_END:
            return produced == target.count ? nil : sizeMismatch(produced, target.count)
        case Z_BUF_ERROR, Z_OK:
            return "the data is cut short (\(produced) of \(target.count) bytes)"
        default:
            return "the data is damaged (\(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"))"
        }
    }

    private static func decodeZstd(_ input: UnsafeRawBufferPointer, into target: UnsafeMutableRawBufferPointer)
        -> String?
    {
        guard let base = input.baseAddress else { return target.isEmpty ? nil : "the data is empty" }
        // One call for every frame; a destination too small for them is an error of its own.
        let result = ZSTD_decompress(target.baseAddress, target.count, base, input.count)
        if ZSTD_isError(result) != 0 {
            let name = String(cString: ZSTD_getErrorName(result))
            if ZSTD_getErrorCode(result) == ZSTD_error_dstSize_tooSmall {
                return "it decompresses to more than the \(target.count) bytes its header declares"
            }
            return "the data is damaged (\(name))"
        }
        return result == target.count ? nil : sizeMismatch(result, target.count)
    }
}
