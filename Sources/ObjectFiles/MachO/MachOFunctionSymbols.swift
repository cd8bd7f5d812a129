import PostmortemCore

/// What Breakpad symbol files take from a Mach-O file's symbol table: the symbols of its code sections (functions,
/// Objective-C methods, `_mh_execute_header`), addresses relative to `__TEXT`, C names without their leading `_`.
package enum MachOFunctionSymbols {
    /// The code symbols of the Mach-O image `file`, by address (sizes 0: the table gives none, and dump_syms writes
    /// a Mach-O `PUBLIC` record without one).
    /// - Throws: ``ObjectFileError`` when the file cannot be read.
    package static func functions(of file: ObjectFile) throws(ObjectFileError) -> [FunctionSymbol] {
        let base = file.imageBase.rawValue
        return try MachOReader.symbolList(of: file, in: ImmutableBytes(mapping: file.path))
            .filter { $0.kind == .function && $0.address.rawValue >= base }
            .map { FunctionSymbol(name: $0.name, address: FileAddress($0.address.rawValue - base), size: 0) }
    }
}
