import Glibc
import PostmortemCore

/// Opens binaries and debug files and reads what symbolication needs from them.
package enum ObjectFileReader {
    /// Identifies the object file at `path` and reads its headers, sections, segments and notes.
    ///
    /// `path` may be an ELF file, a Mach-O file, a universal (fat) file or a `.dSYM` bundle. Of a
    /// universal file, `architecture` picks the slice; without it, a file with one slice gives that
    /// slice and one with several is an error that lists them.
    /// - Throws: ``ObjectFileError`` naming `path` when it is missing, a directory, not an object file,
    ///   malformed, or has no slice for `architecture`.
    package static func read(path: String, architecture: Architecture? = nil) throws(ObjectFileError) -> ObjectFile {
        let images = try readAll(path: path)
        if let architecture {
            if let match = images.first(where: { $0.architecture == architecture }) { return match }
            throw ObjectFileError(
                .architectureNotFound, path: path,
                detail:
                    "has no \(architecture) slice (it has \(images.map(\.architecture.name).joined(separator: ", ")))")
        }
        guard images.count == 1, let only = images.first else {
            throw ObjectFileError(
                .ambiguousArchitecture, path: path,
                detail: "is a universal file with \(images.map(\.architecture.name).joined(separator: ", "))")
        }
        return only
    }

    /// Every image at `path`: each slice of a universal file, or the one image of any other file.
    package static func readAll(path: String) throws(ObjectFileError) -> [ObjectFile] {
        if DSYMBundle.isBundle(path) { return try readAll(path: try DSYMBundle.dwarfFile(in: path)) }
        // One descriptor for the whole identification: libelf reads an ELF file through it, a Mach-O file is mapped from it.
        let opened = try ObjectFileError.opening(path)
        if ELFHandle.hasELFMagic(opened) { return [try ELFReader.read(ELFHandle(file: opened))] }
        let file = try ImmutableBytes(mapping: opened)
        if MachOReader.isMachO(file.base) { return try MachOReader.images(in: file) }
        throw ObjectFileError(.unknownFormat, path: path, detail: "no ELF or Mach-O header")
    }

    /// Reads the ELF image held in `contents` (one read from a process's memory: the vDSO), named `path` in messages
    /// and in the object read.
    /// - Throws: ``ObjectFileError`` when the bytes are no ELF image libelf reads.
    package static func read(contents: ImmutableBytes, path: String) throws(ObjectFileError) -> ObjectFile {
        try ELFReader.read(ELFHandle(bytes: contents, path: path))
    }

    /// The function and data symbols (`.symtab`, `.dynsym`) of the ELF image held in `contents`, named `path` in
    /// messages.
    package static func symbolTable(contents: ImmutableBytes, path: String) throws(ObjectFileError) -> SymbolTable {
        try ELFReader.readSymbols(contents: contents, path: path)
    }

    /// Reads the function and data symbols of `file` (`.symtab` and `.dynsym`, or Mach-O's `LC_SYMTAB`).
    package static func symbolTable(of file: ObjectFile) throws(ObjectFileError) -> SymbolTable {
        var problems: [String] = []
        return try symbolTable(of: file, problems: &problems)
    }

    /// The same, saying in `problems` (one line each) what of the file's symbols could not be read while the rest
    /// were: a MiniDebugInfo that is damaged.
    package static func symbolTable(of file: ObjectFile, problems: inout [String]) throws(ObjectFileError)
        -> SymbolTable
    {
        switch file.format {
        case .elf: try ELFReader.readSymbols(path: file.path, problems: &problems)
        case .machO: try MachOReader.symbols(of: file, in: ImmutableBytes(mapping: file.path))
        }
    }

    /// The contents of the section named `name` in `file` (decompressed), or `nil` when it has none.
    /// - Complexity: O(section size).
    package static func sectionContents(named name: String, in file: ObjectFile) throws(ObjectFileError) -> [UInt8]? {
        switch file.format {
        case .elf:
            return try ELFReader.readSection(named: name, path: file.path)
        case .machO:
            guard let section = file.section(named: name), section.occupiesFile else { return nil }
            let mapped = try ImmutableBytes(mapping: file.path)
            return Array(mapped.base[try fileBytes(of: section, in: file, mapped: mapped)])
        }
    }

    /// The decompressed contents of `section`, a compressed section of the ELF file `file` whose bytes `mapped` holds
    /// (the file's mapping, or a process's copy of it), in memory of their own.
    /// - Throws: ``ObjectFileError`` when the section lies outside `mapped` or cannot be decompressed.
    package static func decompressedSection(_ section: Section, of file: ObjectFile, mapped: ImmutableBytes)
        throws(ObjectFileError) -> ImmutableBytes
    {
        let raw = UnsafeRawBufferPointer(rebasing: mapped.base[try fileBytes(of: section, in: file, mapped: mapped)])
        switch CompressedSection.bytes(
            of: raw, gnuStyle: section.name.hasPrefix(".zdebug"), is64Bit: file.is64Bit, isBigEndian: file.isBigEndian)
        {
        case .success(let bytes): return bytes
        case .failure(let failure):
            throw ObjectFileError(
                .malformed, path: file.path, detail: "section \(section.name) cannot be decompressed: \(failure)"
            )
        }
    }

    /// Where `section`'s bytes lie in `mapped`, `file`'s bytes (of a universal file, the whole file).
    /// - Throws: ``ObjectFileError`` when they run past its end.
    private static func fileBytes(of section: Section, in file: ObjectFile, mapped: ImmutableBytes)
        throws(ObjectFileError) -> Range<Int>
    {
        let start = (file.slice?.offset ?? 0) &+ section.fileOffset
        let (end, overflow) = start.addingReportingOverflow(section.size)
        guard !overflow, end <= UInt64(mapped.base.count) else {
            throw ObjectFileError(
                .malformed, path: file.path, detail: "section \(section.name) runs past the end of the file")
        }
        return Int(start)..<Int(end)
    }

    /// Up to `count` bytes of what `file` loads at `address` (the code or data there), from the allocated section
    /// that holds it; `nil` when no section in the file holds it (`.bss`, or a debug file's empty sections).
    /// - Parameter mapped: `file`'s bytes, mapped (``ImmutableBytes/init(mapping:)``) by a caller that reads many.
    package static func loadedBytes(at address: FileAddress, count: Int, in file: ObjectFile, mapped: ImmutableBytes)
        -> [UInt8]?
    {
        guard let section = file.section(containing: address), section.occupiesFile, !section.isCompressed else {
            return nil
        }
        let into = address.rawValue - section.address.rawValue
        let (start, overflow) = ((file.slice?.offset ?? 0) &+ section.fileOffset).addingReportingOverflow(into)
        guard !overflow, start < UInt64(mapped.count) else { return nil }
        let end = min(UInt64(mapped.count), start + UInt64(min(count, Int(clamping: section.size - into))))
        return mapped.bytes(Int(start)..<Int(end))
    }
}
