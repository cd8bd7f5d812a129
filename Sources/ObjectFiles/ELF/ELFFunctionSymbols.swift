internal import CLibElf
import Glibc
import PostmortemCore

/// A function symbol as a Breakpad symbol file's writer reads it: its name as stored, where it starts, how long it says
/// it is.
package struct FunctionSymbol: Hashable, Sendable {
    /// The name as stored (mangled).
    package var name: String
    /// Where it starts, relative to the first loadable segment.
    package var address: FileAddress
    /// The size the symbol declares (0 when none).
    package var size: UInt64

    /// A symbol `name` at `address` of `size` bytes.
    package init(name: String, address: FileAddress, size: UInt64) {
        self.name = name
        self.address = address
        self.size = size
    }
}

/// What Breakpad symbol files take from an ELF file's symbol tables and dynamic section.
package struct ELFFunctionSymbols: Sendable {
    /// The `STT_FUNC` symbols in executable sections, `.symtab`'s then `.dynsym`'s, in table order; addresses
    /// relative to the first `PT_LOAD` segment (as Mozilla's dump_syms writes them).
    package var functions: [FunctionSymbol]
    /// `DT_SONAME`, the name a shared library is loaded by.
    package var sharedObjectName: String?

    /// Reads the symbol tables and `DT_SONAME` of the ELF file `file`.
    /// - Throws: ``ObjectFileError`` when the file cannot be read.
    package init(of file: ObjectFile) throws(ObjectFileError) {
        let handle = try ELFHandle(path: file.path)
        let sections = try ELFReader.readSections(handle)
        let base = file.segments.first?.virtualAddress.rawValue ?? 0
        var symbolTables: [(OpaquePointer, GElf_Shdr)] = []
        var dynamicSymbolTables: [(OpaquePointer, GElf_Shdr)] = []
        var name: String?
        for (_, scn) in sections {
            var header = GElf_Shdr()
            guard gelf_getshdr(scn, &header) != nil else { continue }
            switch header.sh_type {
            case UInt32(SHT_SYMTAB): symbolTables.append((scn, header))
            case UInt32(SHT_DYNSYM): dynamicSymbolTables.append((scn, header))
            case UInt32(SHT_DYNAMIC): name = name ?? Self.sharedObjectName(handle, scn, header)
            default: break
            }
        }
        var functions: [FunctionSymbol] = []
        for (scn, header) in symbolTables + dynamicSymbolTables {
            Self.readFunctions(handle, scn, header, sections: sections.map(\.section), base: base, into: &functions)
        }
        self.functions = functions
        sharedObjectName = name
    }

    private static func readFunctions(
        _ handle: ELFHandle, _ scn: OpaquePointer, _ header: GElf_Shdr, sections: [Section],
        base: UInt64, into functions: inout [FunctionSymbol]
    ) {
        guard header.sh_entsize > 0, let data = elf_getdata(scn, nil) else { return }
        let count = Int(truncatingIfNeeded: header.sh_size / header.sh_entsize)
        for index in 0..<max(count, 0) {
            var entry = GElf_Sym()
            guard gelf_getsym(data, Int32(truncatingIfNeeded: index), &entry) != nil else { break }
            guard Int32(entry.st_info & 0xF) == STT_FUNC, entry.st_value >= base, entry.st_name != 0 else { continue }
            let sectionIndex = Int(entry.st_shndx)
            guard sectionIndex != Int(SHN_UNDEF), sectionIndex < sections.count, sections[sectionIndex].isExecutable,
                let name = elf_strptr(handle.elf, Int(header.sh_link), Int(entry.st_name))
            else { continue }
            functions.append(
                FunctionSymbol(
                    name: String(cString: name), address: FileAddress(entry.st_value - base), size: entry.st_size))
        }
    }

    private static func sharedObjectName(_ handle: ELFHandle, _ scn: OpaquePointer, _ header: GElf_Shdr) -> String? {
        guard header.sh_entsize > 0, let data = elf_getdata(scn, nil) else { return nil }
        let count = Int(truncatingIfNeeded: header.sh_size / header.sh_entsize)
        for index in 0..<max(count, 0) {
            var entry = GElf_Dyn()
            guard gelf_getdyn(data, Int32(truncatingIfNeeded: index), &entry) != nil else { break }
            if entry.d_tag == Int64(DT_NULL) { break }
            if entry.d_tag == Int64(DT_SONAME),
                let name = elf_strptr(handle.elf, Int(header.sh_link), Int(entry.d_un.d_val))
            {
                return String(cString: name)
            }
        }
        return nil
    }
}
