internal import CCompression
import PostmortemCore

/// Logs, cores and minidumps as people keep them: gzip (CI artefacts, `journalctl | gzip`), xz, or zstd
/// (systemd-coredump's cores, `journalctl -o export | zstd`). Told from their first bytes and decompressed whole, up
/// to a size the caller sets.
package enum CompressedInput {
    /// A compression this reads.
    package enum Format: String, Sendable {
        case gzip, xz, zstd
    }

    /// Why compressed bytes could not be read.
    package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The format the bytes claimed.
        package var format: Format
        /// What went wrong, in one line.
        package var detail: String
        /// The format and the detail.
        package var description: String { "\(format.rawValue)-compressed, but \(detail)" }
    }

    /// How many first bytes tell every compression this reads.
    package static let prefixLength = 6

    /// The compression `bytes` start with; `nil` for anything else.
    package static func format(of bytes: [UInt8]) -> Format? {
        let head = bytes.prefix(prefixLength)
        if head.starts(with: [0x1f, 0x8b]) { return .gzip }
        if head.starts(with: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) { return .xz }
        if head.starts(with: [0x28, 0xb5, 0x2f, 0xfd]) { return .zstd }
        return nil
    }

    /// `bytes` decompressed when they are of a format this reads (every member or frame, one after the other, as
    /// the command-line tools do), else `bytes` as they are.
    /// - Throws: ``Failure`` when the data is damaged or cut, or holds more than `maximumSize` bytes.
    package static func decompressed(_ bytes: [UInt8], maximumSize: Int) throws(Failure) -> [UInt8] {
        guard let format = format(of: bytes) else { return bytes }
        var output: [UInt8] = []
        let result: String? =
            switch format {
            case .gzip: inflateGzip(bytes, into: &output, limit: maximumSize)
            case .xz: decodeXZ(bytes, into: &output, limit: maximumSize)
            case .zstd: decodeZstd(bytes, into: &output, limit: maximumSize)
            }
        if let result { throw Failure(format: format, detail: result) }
        return output
    }

    /// How much output is produced at a time.
    private static let chunk = 1 << 20

    private static func tooLarge(_ limit: Int) -> String { "it holds more than \(limit >> 20) MiB" }

    /// Every gzip member of `input`; the reason it failed, or `nil`.
    private static func inflateGzip(_ input: [UInt8], into output: inout [UInt8], limit: Int) -> String? {
        var stream = z_stream()
        // 15 window bits, plus 16: a gzip header and trailer.
        guard postmortem_inflate_init(&stream, 15 + 16) == Z_OK else { return "zlib could not start" }
        defer { inflateEnd(&stream) }
        var buffer = [UInt8](repeating: 0, count: chunk)
        return input.withUnsafeBufferPointer { source -> String? in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            while true {
                let status = buffer.withUnsafeMutableBufferPointer { target -> Int32 in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output += buffer[0..<(chunk - Int(stream.avail_out))]
                if output.count > limit { return tooLarge(limit) }
                switch status {
                case Z_STREAM_END:
                    // Another member follows (`cat a.gz b.gz`), or the input ends.
                    guard stream.avail_in > 0 else { return nil }
                    guard inflateReset(&stream) == Z_OK else { return "zlib could not read the next member" }
                case Z_OK:
                    if stream.avail_in == 0, stream.avail_out > 0 { return "the data is cut short" }
                case Z_BUF_ERROR:
                    return "the data is cut short"
                default:
                    return "the data is damaged (\(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"))"
                }
            }
        }
    }

    /// Every xz stream of `input`; the reason it failed, or `nil`.
    private static func decodeXZ(_ input: [UInt8], into output: inout [UInt8], limit: Int) -> String? {
        var stream = lzma_stream()
        guard lzma_stream_decoder(&stream, UInt64.max, postmortem_lzma_concatenated) == LZMA_OK else {
            return "liblzma could not start"
        }
        defer { lzma_end(&stream) }
        var buffer = [UInt8](repeating: 0, count: chunk)
        return input.withUnsafeBufferPointer { source -> String? in
            stream.next_in = source.baseAddress
            stream.avail_in = source.count
            while true {
                let status = buffer.withUnsafeMutableBufferPointer { target -> lzma_ret in
                    stream.next_out = target.baseAddress
                    stream.avail_out = target.count
                    return lzma_code(&stream, LZMA_FINISH)
                }
                output += buffer[0..<(chunk - stream.avail_out)]
                if output.count > limit { return tooLarge(limit) }
                switch status {
                case LZMA_STREAM_END: return nil
                case LZMA_OK: continue
                case LZMA_BUF_ERROR: return "the data is cut short"
                default: return "the data is damaged (liblzma error \(status.rawValue))"
                }
            }
        }
    }

    /// Every zstd frame of `input`; the reason it failed, or `nil`.
    private static func decodeZstd(_ input: [UInt8], into output: inout [UInt8], limit: Int) -> String? {
        guard let stream = ZSTD_createDStream() else { return "libzstd could not start" }
        defer { ZSTD_freeDStream(stream) }
        var buffer = [UInt8](repeating: 0, count: chunk)
        return input.withUnsafeBufferPointer { source -> String? in
            var inBuffer = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
            var remaining = 0
            while inBuffer.pos < inBuffer.size || remaining > 0 {
                var produced = 0
                remaining = buffer.withUnsafeMutableBufferPointer { target -> Int in
                    var outBuffer = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: 0)
                    let result = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
                    produced = outBuffer.pos
                    return result
                }
                if ZSTD_isError(remaining) != 0 {
                    return "the data is damaged (\(String(cString: ZSTD_getErrorName(remaining))))"
                }
                output += buffer[0..<produced]
                if output.count > limit { return tooLarge(limit) }
                // All input given and nothing more comes out: a frame is left unfinished.
                if inBuffer.pos == inBuffer.size, remaining > 0, produced == 0 { return "the data is cut short" }
            }
            return nil
        }
    }
}
