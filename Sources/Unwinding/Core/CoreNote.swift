import PostmortemCore

/// One ELF note of a core's `PT_NOTE` segments: its owner's name, type and descriptor bytes.
struct CoreNote {
    static let prstatus: UInt32 = 1
    static let prpsinfo: UInt32 = 3
    static let auxv: UInt32 = 6
    static let file: UInt32 = 0x4649_4c45
    static let siginfo: UInt32 = 0x5349_4749

    var name: String
    var type: UInt32
    var descriptor: [UInt8]

    /// The notes of the `size` bytes at `offset`, and what stopped the reading early, if anything did.
    static func notes(in reader: ByteReader, offset: UInt64, size: UInt64) -> (notes: [CoreNote], problem: String?) {
        let fileSize = UInt64(reader.bytes.count)
        guard offset <= fileSize else { return ([], "a note segment at \(offset) lies past the end of the file") }
        let end = min(offset + min(size, fileSize), fileSize)
        var notes: [CoreNote] = []
        var position = offset
        while position + 12 <= end {
            let base = Int(position)
            guard let nameSize = reader.u32(at: base), let descriptorSize = reader.u32(at: base + 4),
                let type = reader.u32(at: base + 8)
            else { break }
            // Zero words before a note are padding (qemu-user's cores start their note segment with 8 of them).
            if nameSize == 0, descriptorSize == 0 {
                position += 8
                continue
            }
            let nameStart = position + 12
            let descriptorStart = nameStart + (UInt64(nameSize) + 3) / 4 * 4
            let next = descriptorStart + (UInt64(descriptorSize) + 3) / 4 * 4
            guard descriptorStart + UInt64(descriptorSize) <= end else {
                return (
                    notes,
                    "a note of type 0x\(String(type, radix: 16)) claims \(descriptorSize) bytes, past the end of its segment"
                )
            }
            let nameBytes = UnsafeRawBufferPointer(
                rebasing: reader.bytes[Int(nameStart)..<Int(nameStart) + Int(nameSize)])
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            let descriptor = Array(reader.bytes[Int(descriptorStart)..<Int(descriptorStart) + Int(descriptorSize)])
            notes.append(CoreNote(name: name, type: type, descriptor: descriptor))
            position = next
        }
        return (
            notes,
            size > fileSize || offset + size > fileSize ? "the note segment is cut short: the core was truncated" : nil
        )
    }
}
