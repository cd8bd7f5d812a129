import DWARF
import ObjectFiles
import PostmortemCore

/// Renders gdb's answers to `info symbol ADDR` and `info line *ADDR` for one object file.
package struct DebuggerRenderer {
    /// The object file answered for.
    package let symbolizer: ImageSymbolizer
    /// The DWARF read again as gdb reads it, for `info line` (the index answers as llvm-symbolizer does).
    private let dwarf: DWARFFile?

    /// A renderer for `symbolizer`'s image, reading its DWARF again as gdb does when it has any.
    package init(symbolizer: ImageSymbolizer) {
        self.symbolizer = symbolizer
        let debugFile = symbolizer.debugFile ?? (symbolizer.image.hasDWARF ? symbolizer.image : nil)
        dwarf = debugFile.flatMap { try? DWARFFile(object: $0, supplementary: symbolizer.supplementaryFile) }
    }

    /// `main + 4 in section .text`, or `No symbol matches ADDR.`; data symbols too, as gdb names them.
    /// gdb adds `of PATH` (the binary's absolute path) when it holds more than one object file: when the binary's
    /// debug information is a separate file, or MiniDebugInfo; so does this.
    package func infoSymbol(_ address: FileAddress, input: String) -> String {
        guard let hit = symbolizer.gdbSymbol(containing: address),
            let section = symbolizer.section(containing: address)
        else { return "No symbol matches \(input)." }
        let name = symbolizer.displayName(hit.symbol.name)
        let offset = hit.offset == 0 ? "" : " + \(hit.offset)"
        return "\(name)\(offset) in section \(section.name)\(objectFileSuffix)"
    }

    /// ` of PATH` when gdb would hold two object files for the binary (see ``infoSymbol(_:input:)``), else nothing.
    private var objectFileSuffix: String {
        let image = symbolizer.image
        let separate = symbolizer.debugFile.map { $0.path != image.path } ?? false
        let miniDebugInfo =
            symbolizer.debugFile == nil && image.sections.contains { $0.name == ".gnu_debugdata" && $0.occupiesFile }
        // gdb's answers are matched for ELF files; of a Mach-O image and its dSYM, gdb reads neither here.
        guard image.format == .elf, separate || miniDebugInfo else { return "" }
        let path =
            image.path.hasPrefix("/") ? image.path : FilePath.join(FileSystem.currentDirectory ?? "/", image.path)
        return " of \(path)"
    }

    /// `Line 28 of "./sensors.c" starts at address 0x1290 <sample_at> and ends at 0x1298 <sample_at+8>.`,
    /// or gdb's sentence for an address without line information.
    /// As gdb reads the line table (``DWARFFile/gdbLine(at:)``): the last row at an address, rows of line 0 left
    /// out, the file named as the line table names it.
    package func infoLine(_ address: FileAddress) -> String {
        guard let dwarf, let answer = try? dwarf.gdbLine(at: address), let end = answer.end else {
            return "No line number information available for address \(address)\(symbolSuffix(address))"
        }
        if answer.start == end {
            return
                "Line \(answer.line) of \"\(answer.file)\" is at address \(answer.start)\(symbolSuffix(answer.start)) but contains no code."
        }
        return
            "Line \(answer.line) of \"\(answer.file)\" starts at address \(answer.start)\(symbolSuffix(answer.start))"
            + " and ends at \(end)\(symbolSuffix(end))."
    }

    /// ` <name+offset>` as gdb prints it after an address (`build_address_symbolic`): the function whose code holds
    /// it, from its entry (negative before it, in a `.cold` part), unless a symbol of the symbol table starts exactly
    /// there and the function does not; the symbol table's otherwise; linkage names, as gdb prints them there.
    private func symbolSuffix(_ address: FileAddress) -> String {
        let minimal = symbolizer.gdbSymbol(containing: address)
        let function = dwarf.flatMap { try? $0.gdbFunction(at: address) }
        let name: String
        let offset: Int64
        if let minimal, function == nil || (minimal.offset == 0 && function?.entry != address) {
            (name, offset) = (minimal.symbol.name, Int64(minimal.offset))
        } else if let function {
            (name, offset) = (function.name, Int64(bitPattern: address.rawValue &- function.entry.rawValue))
        } else {
            return ""
        }
        return offset == 0 ? " <\(name)>" : offset > 0 ? " <\(name)+\(offset)>" : " <\(name)\(offset)>"
    }
}
