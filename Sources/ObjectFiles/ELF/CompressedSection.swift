import Decompression
import PostmortemCore

/// The contents of a compressed ELF section, decompressed here rather than by libelf: libelf 0.188 knows zlib
/// only, and binutils 2.40 (`--compress-debug-sections=zstd`) and gcc's `-gz=zstd` write zstd too.
///
/// Two layouts: `SHF_COMPRESSED` sections start with an `Elf32_Chdr`/`Elf64_Chdr` (type, size, alignment);
/// the older GNU `.zdebug_*` ones with `ZLIB` and the size as a big-endian 64-bit number.
enum CompressedSection {
    /// `ELFCOMPRESS_ZLIB` and `ELFCOMPRESS_ZSTD`.
    private static let zlibType: UInt32 = 1, zstdType: UInt32 = 2

    /// The decompressed contents of the section whose bytes in the file are `raw`; the reason they cannot be read
    /// (an unknown compression, a damaged stream, a size other than the header declares) otherwise.
    static func contents(of raw: UnsafeRawBufferPointer, gnuStyle: Bool, is64Bit: Bool, isBigEndian: Bool) -> Result<
        [UInt8], CompressedBlock.Failure
    > {
        header(of: raw, gnuStyle: gnuStyle, is64Bit: is64Bit, isBigEndian: isBigEndian).flatMap { block in
            Result { () throws(CompressedBlock.Failure) in
                do throws(CompressedBlock.Failure) {
                    return try CompressedBlock.decompress(block.data, kind: block.kind, size: block.size)
                } catch {
                    throw .init(detail: "\(block.kind.rawValue)-compressed, but \(error.detail)")
                }
            }
        }
    }

    /// The decompressed contents of the section whose bytes in the file are `raw`, in memory of their own, as
    /// ``contents(of:gnuStyle:is64Bit:isBigEndian:)`` reads them but with no copy of them made.
    static func bytes(of raw: UnsafeRawBufferPointer, gnuStyle: Bool, is64Bit: Bool, isBigEndian: Bool) -> Result<
        ImmutableBytes, CompressedBlock.Failure
    > {
        header(of: raw, gnuStyle: gnuStyle, is64Bit: is64Bit, isBigEndian: isBigEndian).flatMap { block in
            var problem: CompressedBlock.Failure?
            let bytes = ImmutableBytes(count: block.size) { target in
                do throws(CompressedBlock.Failure) {
                    try CompressedBlock.decompress(block.data, kind: block.kind, into: target)
                } catch {
                    problem = .init(detail: "\(block.kind.rawValue)-compressed, but \(error.detail)")
                }
            }
            return problem.map { .failure($0) } ?? .success(bytes)
        }
    }

    /// The compression, declared size and compressed data of the section whose bytes in the file are `raw`.
    private static func header(of raw: UnsafeRawBufferPointer, gnuStyle: Bool, is64Bit: Bool, isBigEndian: Bool)
        -> Result<(kind: CompressedBlock.Kind, size: Int, data: UnsafeRawBufferPointer), CompressedBlock.Failure>
    {
        let reader = ByteReader(bytes: raw, isBigEndian: isBigEndian)
        let kind: CompressedBlock.Kind
        let size: UInt64
        let payload: Int
        if gnuStyle {
            guard raw.count >= 12, raw.starts(with: Array("ZLIB".utf8)) else {
                return .failure(.init(detail: "it does not start with ZLIB and a size"))
            }
            kind = .zlib
            size = ByteReader(bytes: raw, isBigEndian: true).unsigned(at: 4, size: 8) ?? 0
            payload = 12
        } else {
            let headerSize = is64Bit ? 24 : 12
            guard raw.count >= headerSize, let type = reader.unsigned(at: 0, size: 4),
                let declared = reader.unsigned(at: is64Bit ? 8 : 4, size: is64Bit ? 8 : 4)
            else {
                return .failure(.init(detail: "its compression header is cut short"))
            }
            switch UInt32(truncatingIfNeeded: type) {
            case zlibType: kind = .zlib
            case zstdType: kind = .zstd
            default: return .failure(.init(detail: "unknown compression type \(type)"))
            }
            size = declared
            payload = headerSize
        }
        // A declared size the section cannot plausibly hold is not allocated (zlib and zstd shrink by 1:1000 at most).
        guard size <= UInt64(max(raw.count, 1)) &* 1032 + 4096, size <= UInt64(Int.max) else {
            return .failure(
                .init(detail: "its header declares \(size) bytes, more than \(raw.count) compressed bytes can hold"))
        }
        return .success((kind, Int(size), UnsafeRawBufferPointer(rebasing: raw[payload...])))
    }
}
