internal import CLibElf
import Decompression
import Glibc
import PostmortemCore

/// Reads the identity, layout and symbols of ELF files through libelf, into plain Swift values.
enum ELFReader {
    /// Reads headers, sections, `PT_LOAD` segments, the build-id note and `.gnu_debuglink`.
    static func read(path: String) throws(ObjectFileError) -> ObjectFile {
        try read(ELFHandle(path: path))
    }

    /// The same, through a handle already open.
    static func read(_ handle: ELFHandle) throws(ObjectFileError) -> ObjectFile {
        let path = handle.path
        let elf = handle.elf

        var header = GElf_Ehdr()
        guard gelf_getehdr(elf, &header) != nil else { throw handle.malformed("ELF header") }
        let is64Bit = gelf_getclass(elf) == ELFCLASS64
        let isBigEndian = header.e_ident.5 == UInt8(ELFDATA2MSB)
        try checkTablesFit(header, handle)

        let segments = try readSegments(handle)
        let sectionList = try readSections(handle)
        var buildID: BuildID?
        var debugLink: DebugLink?
        var supplementaryLink: SupplementaryLink?
        var supplementaryChecksum: BuildID?
        var kind = kind(of: header.e_type)
        for (section, scn) in sectionList {
            if buildID == nil, section.occupiesFile, let id = readBuildID(scn) { buildID = id }
            if kind == .sharedObject, section.occupiesFile, isPositionIndependentExecutable(scn) {
                kind = .positionIndependentExecutable
            }
            if section.name == ".gnu_debuglink", section.occupiesFile {
                debugLink = readDebugLink(scn, isBigEndian: isBigEndian)
            }
            if section.name == ".gnu_debugaltlink" || section.name == ".debug_sup", section.occupiesFile,
                supplementaryLink == nil,
                let data = elf_getdata(scn, nil), let start = data.pointee.d_buf
            {
                let bytes = UnsafeRawBufferPointer(start: start, count: data.pointee.d_size)
                if section.name == ".debug_sup" {
                    (supplementaryLink, supplementaryChecksum) =
                        SupplementaryLink.dwarf5(bytes, isBigEndian: isBigEndian) ?? (nil, nil)
                } else {
                    supplementaryLink = SupplementaryLink.gnuAlternate(bytes)
                }
            }
        }
        return ObjectFile(
            path: path, format: .elf, kind: kind,
            architecture: Architecture(elfMachine: header.e_machine, is64Bit: is64Bit),
            is64Bit: is64Bit, isBigEndian: isBigEndian, buildID: buildID, sections: sectionList.map(\.section),
            segments: segments, debugLink: debugLink,
            supplementaryLink: supplementaryLink, supplementaryChecksum: supplementaryChecksum)
    }

    /// Reads `.symtab` and `.dynsym`: functions and data objects with an address, in file order (the
    /// table sorts itself when asked to). Names are not copied: they are read from a mapping of the file.
    ///
    /// A binary with MiniDebugInfo (`.gnu_debugdata`: an xz-compressed ELF holding the local function symbols that
    /// `strip` removed, as Fedora and RHEL ship every binary) gets those symbols too, after its own `.symtab`'s and
    /// before `.dynsym`'s (gdb's and elfutils' order); its names are then copied into one buffer.
    /// - Parameter problems: where a MiniDebugInfo that cannot be read is said (the rest of the symbols are read).
    /// The `.symtab` and `.dynsym` symbols of the ELF image held in `contents` (named `path` in messages), in file
    /// order.
    static func readSymbols(contents: ImmutableBytes, path: String) throws(ObjectFileError) -> SymbolTable {
        let handle = try ELFHandle(bytes: contents, path: path)
        let sectionList = try readSections(handle)
        var entries: [SymbolTable.Entry] = []
        for table in symbolTables(in: sectionList, types: [SHT_SYMTAB, SHT_DYNSYM]) {
            appendSymbols(
                of: table, in: sectionList, names: contents, into: &entries, shiftingNamesBy: 0, sectionIndex: { $0 })
        }
        let sections = sectionList.map(\.section)
        return SymbolTable(
            fileOrderEntries: entries, names: contents, sectionNames: sections.map(\.name), sections: sections)
    }

    static func readSymbols(path: String, problems: inout [String]) throws(ObjectFileError) -> SymbolTable {
        // One open file for both: the mapping, and libelf's reading of the tables.
        let opened = try ObjectFileError.opening(path)
        let file = try ImmutableBytes(mapping: opened)
        let handle = try ELFHandle(file: opened)
        let sectionList = try readSections(handle)
        let sections = sectionList.map(\.section)
        var entries: [SymbolTable.Entry] = []
        let miniDebugInfo = MiniDebugInfo.read(from: handle, sections: sectionList)
        if case .failure(let failure)? = miniDebugInfo { problems.append(failure.description) }
        guard case .success(let mini)? = miniDebugInfo else {
            // In file order (`.dynsym` usually first): of aliases alike, the later in the file wins.
            for table in symbolTables(in: sectionList, types: [SHT_SYMTAB, SHT_DYNSYM]) {
                appendSymbols(
                    of: table, in: sectionList, names: file, into: &entries, shiftingNamesBy: 0, sectionIndex: { $0 })
            }
            return SymbolTable(
                fileOrderEntries: entries, names: file, sectionNames: sections.map(\.name), sections: sections)
        }
        var names = NameBuffer()
        for table in symbolTables(in: sectionList, types: [SHT_SYMTAB]) {
            let shift = names.append(stringTableOf: table, in: sectionList, from: file)
            appendSymbols(
                of: table, in: sectionList, names: file, into: &entries, shiftingNamesBy: shift, sectionIndex: { $0 })
        }
        // The mini file's sections are numbered its own way (`objcopy -S` dropped the debug sections): its symbols
        // are placed in the binary's section of the same name.
        let miniSections = mini.sections.map(\.section)
        let outerIndex = Dictionary(
            sections.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for table in symbolTables(in: mini.sections, types: [SHT_SYMTAB]) {
            let shift = names.append(stringTableOf: table, in: mini.sections, from: mini.bytes)
            appendSymbols(of: table, in: mini.sections, names: mini.bytes, into: &entries, shiftingNamesBy: shift) {
                index in
                index < miniSections.count ? outerIndex[miniSections[index].name] : nil
            }
        }
        for table in symbolTables(in: sectionList, types: [SHT_DYNSYM]) {
            let shift = names.append(stringTableOf: table, in: sectionList, from: file)
            appendSymbols(
                of: table, in: sectionList, names: file, into: &entries, shiftingNamesBy: shift, sectionIndex: { $0 })
        }
        return SymbolTable(
            fileOrderEntries: entries, names: ImmutableBytes(names.bytes), sectionNames: sections.map(\.name),
            sections: sections)
    }

    /// The symbol-table sections of `types` (`SHT_SYMTAB`, `SHT_DYNSYM`) in `sectionList`, in file order.
    private static func symbolTables(in sectionList: [(section: Section, scn: OpaquePointer)], types: [Int32])
        -> [OpaquePointer]
    {
        sectionList.compactMap { _, scn in
            var header = GElf_Shdr()
            return gelf_getshdr(scn, &header) != nil && types.contains(Int32(header.sh_type)) && header.sh_entsize > 0
                ? scn : nil
        }
    }

    /// The string tables of several files copied one after the other, so that one symbol table can name symbols of
    /// all of them.
    private struct NameBuffer {
        /// Starts with a NUL: offset 0 is the empty name.
        var bytes: [UInt8] = [0]

        /// Copies the string table `table` links to (as it lies in `file`) to the end; returns what to add to a
        /// file offset of a name in it to make it an offset in the buffer.
        mutating func append(
            stringTableOf table: OpaquePointer, in sectionList: [(section: Section, scn: OpaquePointer)],
            from file: ImmutableBytes
        ) -> Int {
            var header = GElf_Shdr()
            guard gelf_getshdr(table, &header) != nil, Int(header.sh_link) < sectionList.count,
                case let strings = sectionList[Int(header.sh_link)].section, strings.occupiesFile,
                strings.fileOffset < UInt64(file.count), let base = file.baseAddress
            else { return 0 }
            let start = Int(strings.fileOffset)
            let count = Int(min(strings.size, UInt64(file.count - start)))
            let shift = bytes.count - start
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: count))
            // A table whose last name lacks its NUL must not run into the next table.
            bytes.append(0)
            return shift
        }
    }

    /// Appends the function and data symbols of the symbol table `scn` of `sectionList`, whose names lie in `names`
    /// (the file the table is in); each name offset is moved by `shift`, each section index by `sectionIndex`.
    private static func appendSymbols(
        of scn: OpaquePointer, in sectionList: [(section: Section, scn: OpaquePointer)], names file: ImmutableBytes,
        into entries: inout [SymbolTable.Entry], shiftingNamesBy shift: Int, sectionIndex: (Int) -> Int?
    ) {
        var sectionHeader = GElf_Shdr()
        guard gelf_getshdr(scn, &sectionHeader) != nil, sectionHeader.sh_entsize > 0, let data = elf_getdata(scn, nil)
        else { return }
        let count = Int(truncatingIfNeeded: sectionHeader.sh_size / sectionHeader.sh_entsize)
        let stringSection = Int(sectionHeader.sh_link)
        guard stringSection < sectionList.count, case let strings = sectionList[stringSection].section,
            strings.occupiesFile,
            strings.fileOffset < UInt64(file.count)
        else { return }
        // The string table as it lies in the file; a name offset past it (or past the file's end) names nothing.
        let base = Int(strings.fileOffset)
        let stringSize = Int(min(strings.size, UInt64(file.count - base)))
        entries.reserveCapacity(entries.count + max(count, 0))
        // What the loop asks of a symbol's section, by section index: copying a `Section` (and its strings) out of
        // the list for each of a Swift binary's 100,000 symbols cost more than reading the symbols.
        let allocated = sectionList.map(\.section.isAllocated)
        let executable = sectionList.map(\.section.isExecutable)
        var currentFile = -1
        for index in 0..<max(count, 0) {
            var entry = GElf_Sym()
            guard gelf_getsym(data, Int32(truncatingIfNeeded: index), &entry) != nil else { break }
            let type = Int32(entry.st_info & 0xF)
            let binding = Int32(entry.st_info >> 4)
            let nameOffset = base + Int(entry.st_name)
            // Offset 0 is the empty name. Other names are not read here (a Swift binary's are 9 MB): one that
            // turns out empty is left out by the table when a lookup meets it.
            let isNameEmpty = entry.st_name == 0 || Int(entry.st_name) >= stringSize
            if type == STT_FILE {
                // An object file's name (`Swift.o`, as swiftc writes it) names no source file.
                currentFile =
                    isNameEmpty || file.u8(at: nameOffset) == 0
                        || isObjectFileName(file, nameOffset, end: base + stringSize)
                    ? -1 : nameOffset + shift
                continue
            }
            let ownIndex = Int(entry.st_shndx)
            guard !isNameEmpty, ownIndex != Int(SHN_UNDEF), ownIndex < Int(SHN_LORESERVE) else { continue }
            let hasSection = ownIndex < sectionList.count
            let kind: Symbol.Kind
            switch type {
            case STT_FUNC, STT_GNU_IFUNC: kind = .function
            case STT_OBJECT, STT_TLS: kind = .object
            // Labels without a type (`data_start`, assembler entry points), as gdb and llvm-symbolizer
            // use them; not local assembler labels (`.L…`) or ARM mapping symbols (`$x`, `$d`).
            case STT_NOTYPE where hasSection && allocated[ownIndex] && !isLocalLabel(file, nameOffset):
                kind = executable[ownIndex] ? .function : .object
            default: continue
            }
            let tableSection = hasSection ? sectionIndex(ownIndex) : nil
            entries.append(
                SymbolTable.Entry(
                    address: FileAddress(entry.st_value), size: entry.st_size, kind: kind, name: nameOffset + shift,
                    section: tableSection.map { Int32($0) } ?? -1,
                    sourceFile: ownsSourceFile(binding, entry.st_other) ? currentFile : -1,
                    isLocal: binding == STB_LOCAL))
        }
    }

    /// Whether a symbol is one of the file an `STT_FILE` entry before it names: a local one that was local in its
    /// object file. The linker turns hidden globals into locals too (`STV_HIDDEN`), and lists them after the last
    /// file's (often `crtstuff.c`), which is not theirs.
    private static func ownsSourceFile(_ binding: Int32, _ other: UInt8) -> Bool {
        binding == STB_LOCAL && Int32(other & 0x3) == STV_DEFAULT
    }

    /// Whether the string at `offset` ends in `.o`.
    private static func isObjectFileName(_ names: ImmutableBytes, _ offset: Int, end: Int) -> Bool {
        var last = offset
        while last < end, names.u8(at: last) != 0 { last += 1 }
        return last - offset > 2 && names.u8(at: last - 2) == UInt8(ascii: ".")
            && names.u8(at: last - 1) == UInt8(ascii: "o")
    }

    /// Whether the name at `offset` is an assembler-local label (`.L…`) or an ARM mapping symbol (`$x`).
    private static func isLocalLabel(_ names: ImmutableBytes, _ offset: Int) -> Bool {
        names.u8(at: offset) == UInt8(ascii: "$")
            || (names.u8(at: offset) == UInt8(ascii: ".") && names.u8(at: offset + 1) == UInt8(ascii: "L"))
    }

    /// The bytes of the section named `name`, decompressed when it is compressed (`SHF_COMPRESSED` with zlib or
    /// zstd, or a GNU `.zdebug_*` section); `nil` when the file has no such section with contents.
    /// - Throws: ``ObjectFileError`` naming the section when it cannot be decompressed to the size it declares.
    static func readSection(named name: String, path: String) throws(ObjectFileError) -> [UInt8]? {
        let handle = try ELFHandle(path: path)
        for (section, scn) in try readSections(handle) where section.name == name && section.occupiesFile {
            guard section.isCompressed else {
                guard let data = elf_getdata(scn, nil) else { throw handle.malformed("section \(name)") }
                guard let bytes = data.pointee.d_buf, data.pointee.d_size > 0 else { return [] }
                return Array(UnsafeRawBufferPointer(start: bytes, count: data.pointee.d_size))
            }
            guard let raw = elf_rawdata(scn, nil) else { throw handle.malformed("section \(name)") }
            let bytes = UnsafeRawBufferPointer(
                start: raw.pointee.d_buf, count: raw.pointee.d_buf == nil ? 0 : raw.pointee.d_size)
            switch CompressedSection.contents(
                of: bytes, gnuStyle: name.hasPrefix(".zdebug"), is64Bit: gelf_getclass(handle.elf) == ELFCLASS64,
                isBigEndian: handle.isBigEndian)
            {
            case .success(let contents): return contents
            case .failure(let failure):
                throw ObjectFileError(
                    .malformed, path: path, detail: "section \(name) cannot be decompressed: \(failure.detail)")
            }
        }
        return nil
    }

    /// A file cut short loses its section headers (they come last): say so, rather than read it as empty.
    private static func checkTablesFit(_ header: GElf_Ehdr, _ handle: ELFHandle) throws(ObjectFileError) {
        let tables: [(name: String, offset: UInt64, count: UInt64, size: UInt64)] = [
            ("section headers", header.e_shoff, UInt64(header.e_shnum), UInt64(header.e_shentsize)),
            ("program headers", header.e_phoff, UInt64(header.e_phnum), UInt64(header.e_phentsize))
        ]
        for table in tables where table.count > 0 {
            let (length, overflow) = table.count.multipliedReportingOverflow(by: table.size)
            let (end, overflow2) = table.offset.addingReportingOverflow(length)
            if overflow || overflow2 || end > handle.fileSize {
                throw ObjectFileError(
                    .malformed, path: handle.path,
                    detail:
                        "\(table.name) end at byte \(overflow || overflow2 ? "beyond 2^64" : String(end)), past the end of the \(handle.fileSize)-byte file (truncated?)"
                )
            }
        }
    }

    /// Whether `scn` is a `.dynamic` section whose `DT_FLAGS_1` says `DF_1_PIE`: an `ET_DYN` file built to be run
    /// (as `file` tells a PIE from a library; a library may have an interpreter too, as libc does).
    private static func isPositionIndependentExecutable(_ scn: OpaquePointer) -> Bool {
        var header = GElf_Shdr()
        guard gelf_getshdr(scn, &header) != nil, header.sh_type == SHT_DYNAMIC, header.sh_entsize > 0,
            let data = elf_getdata(scn, nil)
        else { return false }
        let count = Int(truncatingIfNeeded: header.sh_size / header.sh_entsize)
        for index in 0..<max(count, 0) {
            var entry = GElf_Dyn()
            guard gelf_getdyn(data, Int32(truncatingIfNeeded: index), &entry) != nil, entry.d_tag != Int64(DT_NULL)
            else { break }
            if entry.d_tag == Int64(DT_FLAGS_1) { return entry.d_un.d_val & UInt64(DF_1_PIE) != 0 }
        }
        return false
    }

    private static func kind(of type: UInt16) -> ObjectKind {
        switch Int32(type) {
        case ET_EXEC: .executable
        case ET_DYN: .sharedObject
        case ET_REL: .relocatable
        case ET_CORE: .core
        default: .other
        }
    }

    private static func readSegments(_ handle: ELFHandle) throws(ObjectFileError) -> [Segment] {
        var count = 0
        guard elf_getphdrnum(handle.elf, &count) == 0 else { throw handle.malformed("program headers") }
        var segments: [Segment] = []
        for index in 0..<count {
            var header = GElf_Phdr()
            guard gelf_getphdr(handle.elf, Int32(index), &header) != nil else {
                throw handle.malformed("program header \(index)")
            }
            guard header.p_type == PT_LOAD else { continue }
            segments.append(
                Segment(
                    virtualAddress: FileAddress(header.p_vaddr), memorySize: header.p_memsz,
                    fileOffset: header.p_offset,
                    fileSize: header.p_filesz, isExecutable: header.p_flags & UInt32(PF_X) != 0,
                    isWritable: header.p_flags & UInt32(PF_W) != 0, alignment: header.p_align))
        }
        return segments
    }

    /// Every section with its libelf handle, indexed as in the file (index 0 is the null section).
    static func readSections(_ handle: ELFHandle) throws(ObjectFileError) -> [(section: Section, scn: OpaquePointer)] {
        var namesIndex = 0
        guard elf_getshdrstrndx(handle.elf, &namesIndex) == 0 else { throw handle.malformed("section name table") }
        var count = 0
        guard elf_getshdrnum(handle.elf, &count) == 0 else { throw handle.malformed("section headers") }
        var result: [(section: Section, scn: OpaquePointer)] = []
        result.reserveCapacity(count)
        var scn: OpaquePointer? = nil
        while let current = elf_nextscn(handle.elf, scn) {
            scn = current
            var header = GElf_Shdr()
            guard gelf_getshdr(current, &header) != nil else { throw handle.malformed("section header") }
            let name = elf_strptr(handle.elf, namesIndex, Int(header.sh_name)).map { String(cString: $0) } ?? ""
            let flags = UInt64(header.sh_flags)
            let section = Section(
                name: name, address: FileAddress(header.sh_addr), size: header.sh_size, fileOffset: header.sh_offset,
                isAllocated: flags & UInt64(SHF_ALLOC) != 0, isExecutable: flags & UInt64(SHF_EXECINSTR) != 0,
                isWritable: flags & UInt64(SHF_WRITE) != 0,
                isCompressed: flags & UInt64(SHF_COMPRESSED) != 0 || name.hasPrefix(".zdebug"),
                occupiesFile: header.sh_type != SHT_NOBITS)
            if result.isEmpty, let null = elf_getscn(handle.elf, 0) {
                // libelf's iteration skips section 0; keep indices equal to section numbers.
                result.append(
                    (
                        Section(
                            name: "", address: FileAddress(0), size: 0, fileOffset: 0, isAllocated: false,
                            isExecutable: false, isWritable: false, isCompressed: false, occupiesFile: false), null
                    ))
            }
            result.append((section, current))
        }
        return result
    }

    private static func readBuildID(_ scn: OpaquePointer) -> BuildID? {
        var header = GElf_Shdr()
        guard gelf_getshdr(scn, &header) != nil, header.sh_type == SHT_NOTE, let data = elf_getdata(scn, nil) else {
            return nil
        }
        var offset = 0
        var note = GElf_Nhdr()
        var nameOffset = 0
        var descriptorOffset = 0
        while true {
            let next = gelf_getnote(data, offset, &note, &nameOffset, &descriptorOffset)
            guard next > 0, let bytes = data.pointee.d_buf else { return nil }
            if note.n_type == NT_GNU_BUILD_ID, note.n_namesz == 4, note.n_descsz > 0,
                descriptorOffset + Int(note.n_descsz) <= data.pointee.d_size
            {
                let name = bytes.advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
                if String(cString: name) == "GNU" {
                    let descriptor = UnsafeRawBufferPointer(
                        start: bytes.advanced(by: descriptorOffset), count: Int(note.n_descsz))
                    return BuildID(bytes: Array(descriptor))
                }
            }
            offset = next
        }
    }

    private static func readDebugLink(_ scn: OpaquePointer, isBigEndian: Bool) -> DebugLink? {
        guard let data = elf_getdata(scn, nil), let start = data.pointee.d_buf else { return nil }
        let bytes = UnsafeRawBufferPointer(start: start, count: data.pointee.d_size)
        guard let end = bytes.firstIndex(of: 0), end > 0 else { return nil }
        let name = String(decoding: bytes[0..<end], as: UTF8.self)
        let crcOffset = (end + 4) & ~3
        guard crcOffset + 4 <= bytes.count else { return nil }
        let crcBytes = bytes[crcOffset..<crcOffset + 4].map(UInt32.init)
        let crc =
            isBigEndian
            ? crcBytes[0] << 24 | crcBytes[1] << 16 | crcBytes[2] << 8 | crcBytes[3]
            : crcBytes[3] << 24 | crcBytes[2] << 16 | crcBytes[1] << 8 | crcBytes[0]
        return DebugLink(fileName: name, crc: crc)
    }
}
