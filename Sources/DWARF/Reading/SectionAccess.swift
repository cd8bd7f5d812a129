internal import CLibDwarf
import Dispatch
import Glibc
import ObjectFiles
import PostmortemCore
import Synchronization

/// Hands libdwarf the DWARF sections of one image through its object-access interface
/// (`dwarf_object_init_b`), so that libdwarf reads no file itself: sections are pointers into one
/// read-only mapping of the file (decompressed copies for `-gz` and `.zdebug_*` sections), ELF and
/// Mach-O alike, thin files and slices of universal ones alike.
///
/// Why not `dwarf_init_path`: it reads every section it loads with read(2) into fresh memory, and its
/// Mach-O loader leaves section flags to chance — after enough other work in one process, a dSYM's
/// `.debug_info` came out as "compressed" (`DW_DLE_ZDEBUG_INPUT_FORMAT_ODD`).
final class SectionAccess {
    /// One section as libdwarf sees it: an ELF-style name and the bytes in place.
    struct Entry {
        var name: UnsafeMutablePointer<CChar>?
        var address: UInt64
        var size: UInt64
        var data: UnsafeRawPointer?
    }

    /// Index 0 is an empty entry, as in ELF's section table.
    fileprivate let entries: [Entry]
    /// Each entry's bytes as an owner of them (a part of the mapping, or a decompressed copy), by the entry's name.
    private let bytesByName: [String: ImmutableBytes]
    let isBigEndian: Bool
    fileprivate let is64Bit: Bool
    private let file: ImmutableBytes
    /// Decompressed sections, kept alive as long as libdwarf may read them.
    private let copies: [ImmutableBytes]
    /// The interface libdwarf keeps a pointer to for the whole session.
    let interface: UnsafeMutablePointer<Dwarf_Obj_Access_Interface>
    private let methods: UnsafeMutablePointer<Dwarf_Obj_Access_Methods>
    /// What the interface's `object` points to: a tag byte that none of libdwarf's own loaders use
    /// (libdwarf tells `'E'`, `'M'` and `'P'` objects apart by their first byte), then this object.
    private let context: UnsafeMutableRawPointer

    /// Maps `object`'s file and lists its DWARF sections.
    /// - Throws: ``DWARFError`` when the file cannot be mapped, a section cannot be decompressed or lies
    ///   outside the file, or there is no `.debug_info` at all (``DWARFError/Code/noDebugInfo``).
    /// - Parameter contents: the file's bytes when they are held in memory (an image read from a process: the vDSO);
    ///   `nil`: the file at `object.path` is mapped.
    init(object: ObjectFile, purpose: Purpose = .debugInformation, contents: ImmutableBytes? = nil) throws(DWARFError) {
        if let contents {
            file = contents
        } else {
            do { file = try ImmutableBytes(mapping: object.path) } catch {
                throw DWARFError(.cannotOpen, path: object.path, detail: error.detail)
            }
        }
        isBigEndian = object.isBigEndian
        is64Bit = object.is64Bit
        var entries = [Entry(name: strdup(""), address: 0, size: 0, data: nil)]
        var copies: [ImmutableBytes] = []
        var bytesByName: [String: ImmutableBytes] = [:]
        let base = object.slice?.offset ?? 0
        let read: [(section: Section, name: String)] = object.sections.compactMap { section in
            guard section.occupiesFile, section.size > 0,
                let name = Self.dwarfName(of: section.name, format: object.format), purpose.reads(name)
            else { return nil }
            return (section, name)
        }
        let decompressed = try Self.decompressed(read.map(\.section), of: object, mapped: file)
        for (position, (section, name)) in read.enumerated() {
            var data: UnsafeRawPointer?
            var size = section.size
            if section.isCompressed {
                guard let copy = decompressed[position], copy.count > 0 else { continue }
                copies.append(copy)
                bytesByName[name] = bytesByName[name] ?? copy
                data = copy.baseAddress
                size = UInt64(copy.count)
            } else {
                let (start, overflow) = base.addingReportingOverflow(section.fileOffset)
                let (end, overflow2) = start.addingReportingOverflow(section.size)
                guard !overflow, !overflow2, end <= UInt64(file.count), let mapped = file.baseAddress else {
                    throw DWARFError(
                        .malformed, path: object.path, detail: "section \(section.name) runs past the end of the file")
                }
                data = mapped + Int(start)
                bytesByName[name] = bytesByName[name] ?? ImmutableBytes(Int(start)..<Int(end), of: file)
            }
            entries.append(Entry(name: strdup(name), address: section.address.rawValue, size: size, data: data))
        }
        guard entries.contains(where: { $0.name.map { String(cString: $0) }.map(purpose.suffices) ?? false }) else {
            for entry in entries { free(entry.name) }
            throw DWARFError(.noDebugInfo, path: object.path, detail: "")
        }
        self.entries = entries
        self.copies = copies
        self.bytesByName = bytesByName
        methods = .allocate(capacity: 1)
        methods.initialize(
            to: Dwarf_Obj_Access_Methods(
                get_section_info: sectionInfo, get_byte_order: byteOrder, get_length_size: lengthSize,
                get_pointer_size: pointerSize, get_section_count: sectionCount, load_section: loadSection,
                relocate_a_section: nil))
        context = .allocate(byteCount: 16, alignment: 8)
        context.storeBytes(of: UInt64(UInt8(ascii: "S")), as: UInt64.self)
        interface = .allocate(capacity: 1)
        interface.initialize(to: Dwarf_Obj_Access_Interface(object: context, methods: methods))
        context.storeBytes(
            of: Unmanaged.passUnretained(self).toOpaque(), toByteOffset: 8, as: UnsafeMutableRawPointer.self)
    }

    deinit {
        for entry in entries { free(entry.name) }
        interface.deallocate()
        methods.deallocate()
        context.deallocate()
    }

    /// The compressed ones of `sections` of `object`, decompressed from the mapping straight into memory of their own
    /// (no second reading of the file), by their position in `sections`. A distribution's debug file compresses every
    /// section: they are inflated on both cores at once, the largest (`.debug_info`) first, when there is enough to share.
    private static func decompressed(_ sections: [Section], of object: ObjectFile, mapped file: ImmutableBytes)
        throws(DWARFError) -> [Int: ImmutableBytes]
    {
        let positions = sections.indices.filter { sections[$0].isCompressed }.sorted {
            sections[$0].size > sections[$1].size
        }
        let results = Mutex([Int: Result<ImmutableBytes, ObjectFileError>]())
        let decompress: @Sendable (Int) -> Void = { index in
            let position = positions[index]
            let result = Result { () throws(ObjectFileError) in
                try ObjectFileReader.decompressedSection(sections[position], of: object, mapped: file)
            }
            results.withLock { $0[position] = result }
        }
        let total = positions.reduce(0) { $0 + sections[$1].size }
        if positions.count > 1, total >= parallelDecompressionThreshold {
            DispatchQueue.concurrentPerform(iterations: positions.count, execute: decompress)
        } else {
            positions.indices.forEach(decompress)
        }
        var byPosition: [Int: ImmutableBytes] = [:]
        // The first failure in the file's order is the one said.
        for (position, result) in results.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            switch result {
            case .success(let bytes): byPosition[position] = bytes
            case .failure(let error): throw DWARFError(.malformed, path: object.path, detail: error.detail)
            }
        }
        return byPosition
    }

    /// Compressed bytes below which sections are inflated on the calling thread alone (waking another costs more).
    private static let parallelDecompressionThreshold: UInt64 = 256 * 1024

    /// What a session is opened for, which decides the sections libdwarf is given.
    enum Purpose {
        /// Units, DIEs and line programs: a file without `.debug_info` has nothing to give.
        case debugInformation
        /// Call-frame information only (`.eh_frame`, `.debug_frame`): a stripped binary has it too.
        case callFrames

        func reads(_ name: String) -> Bool {
            switch self {
            case .debugInformation: !SectionAccess.unread.contains(name) && name != ".eh_frame"
            case .callFrames: SectionAccess.frameSections.contains(name)
            }
        }

        /// Whether a file holding the section `name` has something for this purpose.
        func suffices(_ name: String) -> Bool {
            switch self {
            case .debugInformation: name == ".debug_info"
            case .callFrames: SectionAccess.frameSections.contains(name)
            }
        }
    }

    /// The sections call-frame information lies in.
    static let frameSections: Set<String> = [".eh_frame", ".debug_frame"]

    /// DWARF sections symbolication never needs, kept from libdwarf: it reads every unit's location-list header
    /// as it walks the unit headers, which kept a third of a MB per unit of `.debug_loclists` resident (a C++ binary
    /// of six units: 640 KB of a 2.8 MB total for one lookup), and a compressed section would be decompressed for
    /// nothing. Variable locations, macros and name-lookup tables answer other questions than "where is this address".
    static let unread: Set<String> = [
        ".debug_loc", ".debug_loclists", ".debug_macro", ".debug_macinfo", ".debug_pubnames", ".debug_pubtypes",
        ".debug_gnu_pubnames", ".debug_gnu_pubtypes", ".debug_names"
    ]

    /// The bytes of the section libdwarf knows as `name` (`.debug_line`), in place; valid while this object lives.
    func section(named name: String) -> UnsafeRawBufferPointer? {
        guard let entry = entries.first(where: { $0.name.map { String(cString: $0) } == name }), let data = entry.data
        else { return nil }
        return UnsafeRawBufferPointer(start: data, count: Int(entry.size))
    }

    /// The bytes of the section libdwarf knows as `name`, kept alive by the value returned (in-place readers hold it).
    func bytes(named name: String) -> ImmutableBytes? {
        bytesByName[name]
    }

    /// The ELF name libdwarf knows a DWARF section by: `.debug_info` as is, `.zdebug_info` (decompressed
    /// here) as `.debug_info`, Mach-O's `__DWARF,__debug_info` as `.debug_info` (and the 16-character
    /// `__debug_str_offs` as `.debug_str_offsets`); `nil` for sections that are not DWARF.
    static func dwarfName(of name: String, format: ObjectFormat) -> String? {
        switch format {
        case .elf:
            if name.hasPrefix(".debug_") || name == ".eh_frame" { return name }
            if name.hasPrefix(".zdebug_") { return "." + name.dropFirst(2) }
            return nil
        case .machO:
            guard name.hasPrefix("__DWARF,__debug_") else { return nil }
            let suffix = name.dropFirst("__DWARF,__".count)
            return suffix == "debug_str_offs" ? ".debug_str_offsets" : "." + suffix
        }
    }
}

private func access(_ object: UnsafeMutableRawPointer?) -> SectionAccess? {
    object.map {
        Unmanaged<SectionAccess>.fromOpaque($0.load(fromByteOffset: 8, as: UnsafeMutableRawPointer.self))
            .takeUnretainedValue()
    }
}

private let sectionInfo:
    @convention(c) (
        UnsafeMutableRawPointer?, Dwarf_Half, UnsafeMutablePointer<Dwarf_Obj_Access_Section>?,
        UnsafeMutablePointer<Int32>?
    ) -> Int32 = { object, index, section, _ in
        guard let access = access(object), let section else { return DW_DLV_ERROR }
        guard Int(index) < access.entries.count else { return DW_DLV_NO_ENTRY }
        let entry = access.entries[Int(index)]
        section.pointee = Dwarf_Obj_Access_Section(
            addr: entry.address, type: index == 0 ? 0 /* SHT_NULL */ : 1 /* SHT_PROGBITS */, size: entry.size,
            name: UnsafePointer(entry.name), link: 0, info: 0, entrysize: 0)
        return DW_DLV_OK
    }

private let byteOrder: @convention(c) (UnsafeMutableRawPointer?) -> Dwarf_Endianness = { object in
    access(object)?.isBigEndian == true ? DW_OBJECT_MSB : DW_OBJECT_LSB
}

private let lengthSize: @convention(c) (UnsafeMutableRawPointer?) -> Dwarf_Small = { object in
    access(object)?.is64Bit == false ? 4 : 8
}

private let pointerSize: @convention(c) (UnsafeMutableRawPointer?) -> Dwarf_Small = { object in
    access(object)?.is64Bit == false ? 4 : 8
}

private let sectionCount: @convention(c) (UnsafeMutableRawPointer?) -> Dwarf_Unsigned = { object in
    Dwarf_Unsigned(access(object)?.entries.count ?? 0)
}

private let loadSection:
    @convention(c) (
        UnsafeMutableRawPointer?, Dwarf_Half, UnsafeMutablePointer<UnsafeMutablePointer<Dwarf_Small>?>?,
        UnsafeMutablePointer<Int32>?
    ) -> Int32 = { object, index, data, _ in
        guard let access = access(object), let data else { return DW_DLV_ERROR }
        guard Int(index) > 0, Int(index) < access.entries.count, let bytes = access.entries[Int(index)].data else {
            return DW_DLV_NO_ENTRY
        }
        data.pointee = UnsafeMutablePointer(mutating: bytes.assumingMemoryBound(to: Dwarf_Small.self))
        return DW_DLV_OK
    }
