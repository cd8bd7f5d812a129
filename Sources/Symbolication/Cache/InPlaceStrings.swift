import Glibc
import ObjectFiles
import PostmortemCore

/// The strings of a debug file's string sections (`.debug_str`, `.debug_line_str`, `.strtab` and their Mach-O
/// names), found by their contents, so that an index-cache file can name a function by the offset where the debug
/// file already holds the name instead of a copy of it: names are most of what a unit holds (a Swift binary's
/// mangled and demangled names are longer than all of its DWARF but the strings). A cache file is used only while
/// its debug file has the size and modification time it records, so the offsets stay true.
///
/// Compressed sections are not used (their offsets are not the file's); names not found are stored in the cache file.
struct InPlaceStrings {
    private let bytes: ImmutableBytes
    /// Each string's hash and start offset, sorted by hash (of equal hashes, the earlier offset first): 16 bytes a
    /// string, where a dictionary took three times as much (a Swift server's debug file holds a million strings).
    private var entries: [(hash: UInt64, offset: UInt64)] = []

    /// The string sections of `debugFile`, mapped as `bytes` (the whole file).
    init(debugFile: ObjectFile, bytes: ImmutableBytes) {
        self.bytes = bytes
        let names: Set<String> =
            debugFile.format == .elf
            ? [".debug_str", ".debug_line_str", ".strtab"] : ["__DWARF,__debug_str", "__DWARF,__debug_line_str"]
        let sliceStart = debugFile.slice?.offset ?? 0
        for section in debugFile.sections
        where names.contains(section.name) && section.occupiesFile && !section.isCompressed {
            let (start, overflow) = sliceStart.addingReportingOverflow(section.fileOffset)
            guard !overflow, start < UInt64(bytes.count) else { continue }
            let end = Int(min(start + min(section.size, UInt64(bytes.count) - start), UInt64(bytes.count)))
            add(from: Int(start), to: end)
        }
        entries.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.offset < $1.offset }
    }

    /// Lists every NUL-terminated string between `start` and `end`.
    private mutating func add(from start: Int, to end: Int) {
        guard let base = bytes.baseAddress, start < end else { return }
        var position = start
        entries.reserveCapacity(entries.count + (end - start) / 32)
        while position < end {
            // A string cut off by the section's end has no NUL there: it cannot be read in place.
            guard let nul = memchr(base + position, 0, end - position) else { return }
            let length = UnsafeRawPointer(nul) - (base + position)
            entries.append((Self.hash(UnsafeRawBufferPointer(start: base + position, count: length)), UInt64(position)))
            position += length + 1
        }
    }

    /// The file offset of a NUL-terminated copy of `string` in the debug file's string sections, if it has one.
    func offset(of string: String) -> UInt64? {
        var string = string
        return string.withUTF8 { utf8 -> UInt64? in
            // A name with a NUL inside cannot be a string of these sections.
            guard !utf8.contains(0) else { return nil }
            let hash = Self.hash(UnsafeRawBufferPointer(utf8))
            var low = 0, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].hash < hash { low = middle + 1 } else { high = middle }
            }
            // Strings of one hash: the same string in several places, or (rarely) different strings.
            while low < entries.count, entries[low].hash == hash {
                if bytes.stringEquals(at: Int(entries[low].offset), utf8) { return entries[low].offset }
                low += 1
            }
            return nil
        }
    }

    /// FNV-1a of `bytes`.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
