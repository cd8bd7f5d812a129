import PostmortemCore

/// What a file that is no text looks like, told from its first bytes: so that a core, a binary or a compressed log
/// given where a log is expected is named in one line, not parsed (a 100 MB random file took seconds and hundreds of
/// MB before "no crash log") nor printed back to the terminal.
package enum BinaryInput {
    /// How many first bytes are looked at for NUL bytes.
    static let sampleSize = 4_096

    /// What the bytes are, in one phrase, and what can be done with them; `nil` for text.
    package static func kind(of bytes: some Collection<UInt8>) -> (description: String, remedy: Remedy?)? {
        let head = Array(bytes.prefix(sampleSize))
        func starts(_ magic: [UInt8]) -> Bool { head.starts(with: magic) }
        if starts([0x7f, 0x45, 0x4c, 0x46]) { return elfKind(head) }
        if starts(Array("MDMP".utf8)) { return ("a minidump", .giveByPath) }
        if starts([0x1f, 0x8b]) { return ("gzip-compressed", .decompress(command: "gunzip -c")) }
        if starts([0x28, 0xb5, 0x2f, 0xfd]) { return ("zstd-compressed", .decompress(command: "zstd -dc")) }
        if starts([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) { return ("xz-compressed", .decompress(command: "xz -dc")) }
        if starts(Array("BZh".utf8)), head.count >= 10, head[4..<10].elementsEqual([0x31, 0x41, 0x59, 0x26, 0x53, 0x59])
        {
            return ("bzip2-compressed", .decompress(command: "bzip2 -dc"))
        }
        if starts(Array("!<arch>\n".utf8)) { return ("an ar archive (a static library), not a crash log", nil) }
        if starts([0xcf, 0xfa, 0xed, 0xfe]) || starts([0xce, 0xfa, 0xed, 0xfe]) || starts([0xfe, 0xed, 0xfa, 0xcf]) {
            return ("a Mach-O binary, not a crash log", .resolveInBinary)
        }
        // A byte-order mark and text of which ASCII is half the bytes, the other half NUL (not a stray FF FE).
        if starts([0xff, 0xfe]) || starts([0xfe, 0xff]), head.count >= 8,
            head.count(where: { $0 == 0 }) * 3 > head.count
        {
            return ("UTF-16 text", .convertToUTF8)
        }
        // Text may hold a stray NUL or escape (a synthetic module name, colours); data holds control bytes throughout
        // (one in ten of random bytes).
        let sample = head.span
        var controls = 0
        for index in sample.indices where isControl(sample[index]) { controls += 1 }
        if controls >= 8, controls * 20 > head.count {
            return ("binary data (\(controls) control bytes in its first \(head.count) bytes), not a text log", nil)
        }
        return nil
    }

    /// A control byte text does not hold: not a tab, line or page break, or escape. Without a branch (every log's first
    /// 4 KB pass here): the bits of `textControls` are the control bytes text holds.
    @inline(__always) private static func isControl(_ byte: UInt8) -> Bool {
        let textControls: UInt32 = 1 << 0x09 | 1 << 0x0a | 1 << 0x0b | 1 << 0x0c | 1 << 0x0d | 1 << 0x1b
        return byte < 0x20 && textControls & (1 &<< UInt32(byte & 31)) == 0
    }

    private static func elfKind(_ head: [UInt8]) -> (description: String, remedy: Remedy?) {
        guard head.count >= 18 else { return ("a truncated ELF file, not a crash log", nil) }
        let type = head[5] == 2 ? UInt16(head[16]) << 8 | UInt16(head[17]) : UInt16(head[17]) << 8 | UInt16(head[16])
        switch type {
        case 4: return ("an ELF core file", .giveByPath)
        case 1: return ("an ELF relocatable object, not a crash log", nil)
        case 2, 3: return ("an ELF binary, not a crash log", .resolveInBinary)
        default: return ("an ELF file, not a crash log", nil)
        }
    }
}
