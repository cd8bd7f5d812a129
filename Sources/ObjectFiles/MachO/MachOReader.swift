import PostmortemCore

/// Reads Mach-O images and universal (fat) files, parsed in Swift from the mapped file.
enum MachOReader {
    static let fatMagic: UInt32 = 0xCAFE_BABE
    static let fatMagic64: UInt32 = 0xCAFE_BABF

    /// True when the file starts like a Mach-O image or a universal file.
    static func isMachO(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let magic = ByteReader(bytes: bytes, isBigEndian: true).u32(at: 0) else { return false }
        return [0xFEED_FACE, 0xFEED_FACF, 0xCEFA_EDFE, 0xCFFA_EDFE].contains(magic) || isFat(bytes)
    }

    static func isFat(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let reader = ByteReader(bytes: bytes, isBigEndian: true)
        guard let magic = reader.u32(at: 0), magic == fatMagic || magic == fatMagic64, let count = reader.u32(at: 4)
        else { return false }
        // Java class files share the magic; their "count" (a version) is large.
        return count > 0 && count < 64
    }

    /// Every image in the file: each slice of a universal file, or the one image of a thin file.
    static func images(in file: ImmutableBytes) throws(ObjectFileError) -> [ObjectFile] {
        if isFat(file.base) {
            return try fatSlices(file).map { slice throws(ObjectFileError) in try image(in: file, slice: slice) }
        }
        return [try image(in: file, slice: nil)]
    }

    /// The slices a universal file lists, checked against the file's size.
    static func fatSlices(_ file: ImmutableBytes) throws(ObjectFileError) -> [FileSlice] {
        let reader = ByteReader(bytes: file.base, isBigEndian: true)
        let is64 = reader.u32(at: 0) == fatMagic64
        let count = Int(reader.u32(at: 4) ?? 0)
        let entrySize = is64 ? 32 : 20
        var slices: [FileSlice] = []
        for index in 0..<count {
            let entry = 8 + index * entrySize
            guard let offset = is64 ? reader.u64(at: entry + 8) : reader.u32(at: entry + 8).map(UInt64.init),
                let size = is64 ? reader.u64(at: entry + 16) : reader.u32(at: entry + 12).map(UInt64.init)
            else {
                throw ObjectFileError(
                    .malformed, path: file.path, detail: "universal header cut short at slice \(index)")
            }
            let (end, overflow) = offset.addingReportingOverflow(size)
            guard !overflow, end <= UInt64(file.base.count) else {
                throw ObjectFileError(
                    .malformed, path: file.path,
                    detail:
                        "universal header puts slice \(index) at bytes \(offset)..<\(overflow ? "2^64" : String(end)), past the end of the \(file.base.count)-byte file"
                )
            }
            slices.append(FileSlice(offset: offset, size: size))
        }
        return slices
    }

    /// Reads the image in `slice` of the file (the whole file when `slice` is `nil`).
    static func image(in file: ImmutableBytes, slice: FileSlice?) throws(ObjectFileError) -> ObjectFile {
        let whole = file.base
        let bytes =
            slice.map { UnsafeRawBufferPointer(rebasing: whole[Int($0.offset)..<Int($0.offset + $0.size)]) } ?? whole
        func malformed(_ detail: String) -> ObjectFileError {
            ObjectFileError(
                .malformed, path: file.path,
                detail: slice.map { "slice at byte \($0.offset): " }.map { $0 + detail } ?? detail)
        }
        guard let rawMagic = ByteReader(bytes: bytes, isBigEndian: false).u32(at: 0) else {
            throw malformed("Mach-O header cut short")
        }
        let isBigEndian = rawMagic == 0xCEFA_EDFE || rawMagic == 0xCFFA_EDFE
        let reader = ByteReader(bytes: bytes, isBigEndian: isBigEndian)
        let magic = reader.u32(at: 0)
        guard magic == 0xFEED_FACE || magic == 0xFEED_FACF else { throw malformed("no Mach-O header") }
        let is64 = magic == 0xFEED_FACF
        guard let cpuType = reader.u32(at: 4), let cpuSubtype = reader.u32(at: 8), let fileType = reader.u32(at: 12),
            let commandCount = reader.u32(at: 16), let commandsSize = reader.u32(at: 20)
        else {
            throw malformed("Mach-O header cut short")
        }
        let headerSize = is64 ? 32 : 28
        guard UInt64(headerSize) + UInt64(commandsSize) <= UInt64(bytes.count) else {
            throw malformed(
                "load commands end at byte \(UInt64(headerSize) + UInt64(commandsSize)), past the end of the \(bytes.count)-byte image (truncated?)"
            )
        }

        var commands = MachOLoadCommands(reader: reader, is64Bit: is64)
        var offset = headerSize
        for index in 0..<Int(commandCount) {
            guard let command = reader.u32(at: offset), let size = reader.u32(at: offset + 4), size >= 8,
                offset + Int(size) <= headerSize + Int(commandsSize)
            else {
                throw malformed("load command \(index) at byte \(offset) is cut short or runs past the load commands")
            }
            try commands.read(command: command, at: offset, size: Int(size), malformed: malformed)
            offset += Int(size)
        }
        return ObjectFile(
            path: file.path, format: .machO, kind: kind(of: fileType),
            architecture: Architecture(machCPUType: Int32(bitPattern: cpuType), subtype: Int32(bitPattern: cpuSubtype)),
            is64Bit: is64, uuid: commands.uuid, platform: commands.platform, slice: slice,
            sections: commands.sections, segments: commands.segments)
    }

    /// The function and data symbols of `image` (`LC_SYMTAB`, without debugger stabs), with the
    /// leading `_` of C names removed; sizes run to the next symbol or the end of the section.
    static func symbols(of image: ObjectFile, in file: ImmutableBytes) throws(ObjectFileError) -> SymbolTable {
        SymbolTable(symbols: try symbolList(of: image, in: file), sections: image.sections)
    }

    /// The symbols of ``symbols(of:in:)``, by address.
    static func symbolList(of image: ObjectFile, in file: ImmutableBytes) throws(ObjectFileError) -> [Symbol] {
        let whole = file.base
        let bytes =
            image.slice.map { UnsafeRawBufferPointer(rebasing: whole[Int($0.offset)..<Int($0.offset + $0.size)]) }
            ?? whole
        let isBigEndian =
            ByteReader(bytes: bytes, isBigEndian: false).u32(at: 0).map { $0 == 0xCEFA_EDFE || $0 == 0xCFFA_EDFE }
            ?? false
        let reader = ByteReader(bytes: bytes, isBigEndian: isBigEndian)
        var commands = MachOLoadCommands(reader: reader, is64Bit: image.is64Bit)
        var offset = image.is64Bit ? 32 : 28
        for _ in 0..<Int(reader.u32(at: 16) ?? 0) {
            guard let command = reader.u32(at: offset), let size = reader.u32(at: offset + 4), size >= 8 else { break }
            if command == MachOLoadCommands.symbolTable {
                try commands.read(command: command, at: offset, size: Int(size)) { detail in
                    ObjectFileError(.malformed, path: file.path, detail: detail)
                }
            }
            offset += Int(size)
        }
        guard let table = commands.symbolTableLocation else { return [] }
        let entrySize = image.is64Bit ? 16 : 12
        var raw: [(name: String, address: UInt64, section: Int)] = []
        for index in 0..<table.count {
            let entry = table.symbolOffset + index * entrySize
            guard let nameOffset = reader.u32(at: entry), let type = reader.u8(at: entry + 4),
                let section = reader.u8(at: entry + 5),
                let value = image.is64Bit ? reader.u64(at: entry + 8) : reader.u32(at: entry + 8).map(UInt64.init)
            else {
                throw ObjectFileError(.malformed, path: file.path, detail: "symbol table cut short at entry \(index)")
            }
            // Debugger stabs (N_STAB) and anything not defined in a section (N_SECT) are not code or data.
            guard type & 0xE0 == 0, type & 0x0E == 0x0E, section > 0, Int(nameOffset) < table.stringSize,
                var name = reader.string(at: table.stringOffset + Int(nameOffset)), !name.isEmpty
            else { continue }
            if name.hasPrefix("_") { name.removeFirst() }
            raw.append((name, value, Int(section) - 1))
        }
        raw.sort { $0.address < $1.address }
        var symbols: [Symbol] = []
        for (index, entry) in raw.enumerated() where entry.section < image.sections.count {
            let section = image.sections[entry.section]
            let sectionEnd = section.address.rawValue &+ section.size
            let next = raw[(index + 1)...].first { $0.address > entry.address }?.address ?? sectionEnd
            symbols.append(
                Symbol(
                    name: entry.name, address: FileAddress(entry.address), size: min(next, sectionEnd) &- entry.address,
                    kind: section.isExecutable ? .function : .object, sectionName: section.name, sourceFile: nil))
        }
        return symbols
    }

    private static func kind(of fileType: UInt32) -> ObjectKind {
        switch fileType {
        case 2: .executable
        case 6, 8: .sharedObject
        case 1: .relocatable
        case 4: .core
        case 0xA: .debugCompanion
        default: .other
        }
    }
}
