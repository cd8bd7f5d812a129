/// Writes a ``BreakpadSymbolFile`` as the text Breakpad's tools read: `MODULE`, `INFO`, `FILE`, `INLINE_ORIGIN`, the
/// `FUNC` (each with its `INLINE` and line records) and `PUBLIC` records by address, then `STACK CFI`.
public enum SymbolFileText {
    /// The whole file, in UTF-8, through `emit` in pieces (so that a large file is never held twice).
    public static func write(_ file: BreakpadSymbolFile, to emit: (String) -> Void) {
        var text = ""
        text.reserveCapacity(1 << 16)
        func flushIfLarge() {
            if text.utf8.count >= 1 << 16 {
                emit(text)
                text.removeAll(keepingCapacity: true)
            }
        }
        let module = file.module
        text += "MODULE \(module.operatingSystem) \(module.architecture) \(module.debugID) \(module.name)\n"
        if let codeID = file.codeID { text += "INFO CODE_ID \(codeID)\n" }
        for info in file.info { text += "INFO \(info)\n" }
        for (number, path) in file.files.enumerated() {
            text += "FILE \(number) \(path)\n"
            flushIfLarge()
        }
        for (number, name) in file.inlineOrigins.enumerated() {
            text += "INLINE_ORIGIN \(number) \(name)\n"
            flushIfLarge()
        }
        for symbol in file.symbols {
            let multiple = symbol.isMultiple ? "m " : ""
            switch symbol.kind {
            case .publicSymbol:
                text += "PUBLIC \(multiple)\(hex(symbol.address)) \(hex(symbol.parameterSize)) \(symbol.name)\n"
            case .function(let size, let lines, let inlines):
                text += "FUNC \(multiple)\(hex(symbol.address)) \(hex(size)) \(hex(symbol.parameterSize)) \(symbol.name)\n"
                for inline in inlines {
                    text += "INLINE \(inline.depth) \(inline.callLine) \(inline.callFile) \(inline.origin)"
                    for range in inline.ranges { text += " \(hex(range.address)) \(hex(range.size))" }
                    text += "\n"
                }
                for line in lines { text += "\(hex(line.address)) \(hex(line.size)) \(line.line) \(line.file)\n" }
            }
            flushIfLarge()
        }
        for line in file.stackCFI {
            text += line
            text += "\n"
            flushIfLarge()
        }
        if !text.isEmpty { emit(text) }
    }

    private static func hex(_ value: UInt64) -> String { String(value, radix: 16) }
}
