/// Whether the bytes before a return address end with a call instruction: how a word found by scanning the stack is
/// told from a stale pointer into code (Breakpad's and rust-minidump's check before they take a scanned frame), and
/// how a binary is told from another build when a log gives only offsets.
package enum CallInstructions {
    /// How many bytes before an address ``endsWithCall(_:architecture:)`` reads.
    package static let bytesRead = 8

    /// Whether `before` (the 8 bytes just before an address, in order) ends with a call on `architecture`; `nil` for
    /// an architecture whose calls it does not know, or fewer bytes.
    package static func endsWithCall(_ before: [UInt8], architecture: Architecture) -> Bool? {
        guard before.count == bytesRead else { return nil }
        switch architecture {
        case .x86_64, .x86_64h:
            // call rel32: E8 and four bytes.
            if before[3] == 0xe8 { return true }
            // call r/m64: FF /2, whose length follows from its ModRM byte (a REX prefix before it changes nothing here).
            for length in 2...7 {
                let opcode = 8 - length
                guard before[opcode] == 0xff else { continue }
                let modrm = before[opcode + 1]
                if (modrm >> 3) & 7 == 2,
                    indirectCallLength(modrm: modrm, sib: opcode + 2 < 8 ? before[opcode + 2] : 0) == length
                {
                    return true
                }
            }
            return false
        case .arm64, .arm64e:
            let word = UInt32(before[4]) | UInt32(before[5]) << 8 | UInt32(before[6]) << 16 | UInt32(before[7]) << 24
            // BL imm26; BLR Xn; BLRAA, BLRAB, BLRAAZ, BLRABZ (pointer authentication).
            return word & 0xfc00_0000 == 0x9400_0000 || word & 0xffff_fc1f == 0xd63f_0000
                || word & 0xfeff_f800 == 0xd63f_0800
        default:
            return nil
        }
    }

    /// The length of `FF /2` with `modrm` (and `sib` when it has one).
    private static func indirectCallLength(modrm: UInt8, sib: UInt8) -> Int {
        let mode = modrm >> 6
        let rm = modrm & 7
        switch mode {
        case 3: return 2
        case 0:
            if rm == 4 { return sib & 7 == 5 ? 7 : 3 }
            return rm == 5 ? 6 : 2
        case 1: return rm == 4 ? 4 : 3
        default: return rm == 4 ? 7 : 6
        }
    }
}
