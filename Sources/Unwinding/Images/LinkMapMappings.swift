import ObjectFiles
import PostmortemCore

/// The shared objects of a process as its dynamic linker listed them: the executable's `DT_DEBUG` entry points to
/// `r_debug`, whose `r_map` chain of `link_map` records names each loaded object, its load bias (`l_addr`) and where
/// its dynamic section lay (`l_ld`). A core that lists no mapped files (qemu-user's) has no other record of which
/// libraries were loaded and where; gdb reads the same chain.
enum LinkMapMappings {
    static let debugTag: UInt64 = 21 // DT_DEBUG
    /// More loaded objects than any process has: a longer chain is a loop or garbage.
    static let entryLimit = 4096

    /// One `link_map` record.
    struct Entry: Equatable {
        var name: String
        var bias: UInt64
        var dynamicAddress: UInt64
    }

    /// The libraries of the process whose executable `executable` was loaded `bias` from its file addresses, each placed
    /// as the kernel would have mapped it; a file looked for at the path the record names, below each root of
    /// `roots` (as gdb's `sysroot`: a library `/lib/libc.so.6` of a foreign machine's process lies at
    /// `ROOT/lib/libc.so.6`) and by name directly in each root, taken only when its dynamic section lies where the
    /// record says it lay. `problems` says which records found no file.
    static func mappings(
        executable: ObjectFile, bias: UInt64, memory: any MemoryReader, interpreterBase: UInt64?, roots: [String],
        architecture: UnwindArchitecture
    ) -> (mappings: [CoreMapping], problems: [String]) {
        var entries = self.entries(executable: executable, bias: bias, memory: memory)
        // The dynamic linker's own record may have no name (as under qemu-user): it is the one loaded at AT_BASE, the
        // file the executable's `.interp` names.
        if let interpreterBase,
            let index = entries.indices.dropFirst().first(where: {
                entries[$0].name.isEmpty && entries[$0].bias == interpreterBase
            }),
            let interpreter = interpreterPath(of: executable)
        {
            entries[index].name = interpreter
        }
        var mappings: [CoreMapping] = []
        var problems: [String] = []
        for entry in entries where entry.name.hasPrefix("/") && entry.name != executable.path {
            let candidates =
                [entry.name]
                + roots.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }.flatMap { root in
                    [root + entry.name, root + "/" + FilePath.fileName(of: entry.name)]
                }
            var rejected: [String] = []
            var found = false
            for candidate in candidates where FileSystem.isRegularFile(candidate) {
                guard
                    let object = try? ObjectFileReader.read(
                        path: candidate, architecture: architecture.objectArchitecture),
                    object.format == .elf
                else {
                    rejected.append("\(candidate): not an ELF binary")
                    continue
                }
                guard let dynamic = object.sections.first(where: { $0.name == ".dynamic" }),
                    dynamic.address.rawValue &+ entry.bias == entry.dynamicAddress
                else {
                    rejected.append("\(candidate): its dynamic section is not where the process had it")
                    continue
                }
                mappings += ExecutableMappings.segmentMappings(of: object, path: candidate, bias: entry.bias)
                found = true
                break
            }
            if !found {
                let why = rejected.isEmpty ? "not found" : rejected.joined(separator: "; ")
                problems.append(
                    "\(entry.name), loaded at 0x\(String(entry.bias, radix: 16)) (the dynamic linker's list; the core lists "
                        + "no mapped files): \(why)"
                        + (roots.isEmpty
                            ? "; a folder the libraries lie below (a sysroot) is searched when given as a debug folder"
                            : ""))
            }
        }
        return (mappings, problems)
    }

    /// The program interpreter the executable names (its `.interp` section: `/lib64/ld-linux-x86-64.so.2`).
    static func interpreterPath(of executable: ObjectFile) -> String? {
        guard let section = executable.sections.first(where: { $0.name == ".interp" }), section.size > 1,
            section.size < 4096,
            let bytes = FileSystem.read(
                executable.path, offset: (executable.slice?.offset ?? 0) + section.fileOffset, count: Int(section.size)),
            let end = bytes.firstIndex(of: 0), end > 0
        else { return nil }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The records of the chain, in the dynamic linker's order; empty when the executable has no `DT_DEBUG` entry
    /// in memory (a static program) or it leads nowhere the memory holds.
    static func entries(executable: ObjectFile, bias: UInt64, memory: any MemoryReader) -> [Entry] {
        guard let dynamic = executable.sections.first(where: { $0.name == ".dynamic" }), dynamic.size >= 16,
            dynamic.size <= 1 << 20
        else { return [] }
        let start = bias &+ dynamic.address.rawValue
        var debugAddress: UInt64?
        var offset: UInt64 = 0
        while offset + 16 <= dynamic.size, let tag = memory.word(at: start &+ offset) {
            if tag == 0 { break }
            if tag == debugTag { debugAddress = memory.word(at: start &+ offset &+ 8) }
            offset += 16
        }
        // r_debug: r_version (an int, padded), then r_map.
        guard let debugAddress, debugAddress != 0, var record = memory.word(at: debugAddress &+ 8) else { return [] }
        var entries: [Entry] = []
        var seen: Set<UInt64> = []
        while record != 0, entries.count < entryLimit, seen.insert(record).inserted {
            // link_map: l_addr, l_name, l_ld, l_next, l_prev.
            guard let bias = memory.word(at: record), let nameAddress = memory.word(at: record &+ 8),
                let dynamicAddress = memory.word(at: record &+ 16), let next = memory.word(at: record &+ 24)
            else { break }
            let name = nameAddress == 0 ? "" : ExecutableMappings.cString(at: nameAddress, in: memory) ?? ""
            entries.append(Entry(name: name, bias: bias, dynamicAddress: dynamicAddress))
            record = next
        }
        return entries
    }
}
