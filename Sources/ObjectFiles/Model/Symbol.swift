import PostmortemCore

/// One entry of a symbol table (`.symtab` or `.dynsym`).
package struct Symbol: Hashable, Sendable {
    /// Code or data.
    package enum Kind: Hashable, Sendable {
        case function
        case object
    }

    /// The name as stored: mangled for C++ and Swift.
    package var name: String
    /// Where the symbol starts, before any load bias.
    package var address: FileAddress
    /// The size the symbol declares; 0 when it declares none.
    package var size: UInt64
    /// Code or data.
    package var kind: Kind
    /// The name of the section the symbol lies in, when it has one.
    package var sectionName: String?
    /// The source file named by the `STT_FILE` entry before a local symbol (`crtstuff.c`).
    package var sourceFile: String?
    /// Local to the object file it came from (`STB_LOCAL`); global and weak symbols are not.
    package var isLocal: Bool

    /// A symbol as a table lists it.
    package init(
        name: String, address: FileAddress, size: UInt64, kind: Kind, sectionName: String?, sourceFile: String?,
        isLocal: Bool = false
    ) {
        self.name = name
        self.address = address
        self.size = size
        self.kind = kind
        self.sectionName = sectionName
        self.sourceFile = sourceFile
        self.isLocal = isLocal
    }
}
