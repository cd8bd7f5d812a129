/// Opens binaries and debug files and reads what symbolication needs from them.
public enum ObjectFileReader {
    /// Identifies the object file at `path` and reads its headers, sections, segments and notes.
    /// - Throws: ``ObjectFileError`` naming `path` when it is missing, a directory, not an object file or malformed.
    public static func read(path: String) throws(ObjectFileError) -> ObjectFile {
        try ELFReader.read(path: path)
    }

    /// Reads the function and data symbols of `file` (`.symtab`, and `.dynsym` of stripped binaries).
    public static func symbolTable(of file: ObjectFile) throws(ObjectFileError) -> SymbolTable {
        try ELFReader.readSymbols(path: file.path)
    }

    /// The contents of the section named `name` in `file` (decompressed), or `nil` when it has none.
    /// - Complexity: O(section size).
    public static func sectionContents(named name: String, in file: ObjectFile) throws(ObjectFileError) -> [UInt8]? {
        try ELFReader.readSection(named: name, path: file.path)
    }
}
