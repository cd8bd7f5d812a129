import ObjectFiles
public import PostmortemCore

/// Everything known about one file address of one image.
public struct AddressResolution: Hashable, Sendable {
    /// The file address that was looked up.
    public var address: FileAddress
    /// The inline chain, innermost first; empty when nothing covers the address.
    public var frames: [SymbolicatedFrame]
    /// The symbol-table entry that covers the address, and how far into it the address lies.
    public var symbol: String?
    /// How far into ``symbol`` the address lies.
    public var symbolOffset: UInt64?
    /// The start of the outermost function (from DWARF, else from the symbol table).
    public var functionStart: FileAddress?
    /// Why the address stays unresolved, when ``frames`` is empty.
    public var unresolvedReason: UnresolvedReason?

    /// A resolution of `address`: `frames` innermost first, the covering symbol, and why nothing covers it when nothing does.
    public init(
        address: FileAddress, frames: [SymbolicatedFrame], symbol: String?, symbolOffset: UInt64?,
        functionStart: FileAddress?, unresolvedReason: UnresolvedReason?
    ) {
        self.address = address
        self.frames = frames
        self.symbol = symbol
        self.symbolOffset = symbolOffset
        self.functionStart = functionStart
        self.unresolvedReason = unresolvedReason
    }

    /// Whether any function or line was found for the address.
    public var isResolved: Bool { !frames.isEmpty }
}
