public import ObjectFiles

/// Renders gdb's answers to `info symbol ADDR` and `info line *ADDR` for one object file.
public struct DebuggerRenderer {
    public let symbolizer: ImageSymbolizer

    public init(symbolizer: ImageSymbolizer) {
        self.symbolizer = symbolizer
    }

    /// `main + 4 in section .text`, or `No symbol matches ADDR.`; data symbols too, as gdb names them.
    /// Like gdb with one object file loaded, it does not add `of PATH`.
    public func infoSymbol(_ address: FileAddress, input: String) -> String {
        guard let hit = symbolizer.symbol(containing: address),
              let section = symbolizer.section(containing: address) else { return "No symbol matches \(input)." }
        let name = symbolizer.displayName(hit.symbol.name)
        let offset = hit.offset == 0 ? "" : " + \(hit.offset)"
        return "\(name)\(offset) in section \(section.name)"
    }

    /// `Line 28 of "./sensors.c" starts at address 0x1290 <sample_at> and ends at 0x1298 <sample_at+8>.`,
    /// or gdb's sentence for an address without line information.
    public func infoLine(_ address: FileAddress) -> String {
        guard let entry = symbolizer.lineEntry(at: address), entry.line > 0 else {
            return "No line number information available for address \(address)\(symbolSuffix(address))"
        }
        let file = entry.file ?? "??"
        return "Line \(entry.line) of \"\(file)\" starts at address \(entry.range.lowerBound)\(symbolSuffix(entry.range.lowerBound))"
            + " and ends at \(entry.range.upperBound)\(symbolSuffix(entry.range.upperBound))."
    }

    /// ` <name+offset>` as gdb prints it after an address, or nothing when no symbol covers it.
    private func symbolSuffix(_ address: FileAddress) -> String {
        guard let hit = symbolizer.symbol(containing: address) else { return "" }
        let name = symbolizer.displayName(hit.symbol.name)
        return hit.offset == 0 ? " <\(name)>" : " <\(name)+\(hit.offset)>"
    }
}
