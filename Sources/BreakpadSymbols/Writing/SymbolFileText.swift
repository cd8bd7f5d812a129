/// Writes a ``BreakpadSymbolFile`` as the text Breakpad's tools read: `MODULE`, `INFO`, `FILE`, `INLINE_ORIGIN`, the
/// `FUNC` (each with its `INLINE` and line records) and `PUBLIC` records by address, then `STACK CFI`.
package enum SymbolFileText {
    /// The whole file, in UTF-8, through `emit` in pieces (so that a large file is never held twice).
    package static func write(_ file: BreakpadSymbolFile, to emit: ([UInt8]) -> Void) {
        var text = RecordText()
        func flushIfLarge() {
            if text.count >= 1 << 16 {
                emit(text.bytes)
                text.removeAll()
            }
        }
        let module = file.module
        text.append("MODULE \(module.operatingSystem) \(module.architecture) \(module.debugID) \(module.name)\n")
        if let codeID = file.codeID { text.append("INFO CODE_ID \(codeID)\n") }
        for info in file.info { text.append("INFO \(info)\n") }
        for (number, path) in file.files.enumerated() {
            text.append("FILE " as StaticString); text.appendDecimal(UInt64(number)); text.appendByte(UInt8(ascii: " "))
            text.append(path); text.appendByte(UInt8(ascii: "\n"))
            flushIfLarge()
        }
        for (number, name) in file.inlineOrigins.enumerated() {
            text.append("INLINE_ORIGIN " as StaticString); text.appendDecimal(UInt64(number));
            text.appendByte(UInt8(ascii: " "))
            text.append(name); text.appendByte(UInt8(ascii: "\n"))
            flushIfLarge()
        }
        for symbol in file.symbols {
            switch symbol.kind {
            case .publicSymbol:
                text.append(symbol.isMultiple ? "PUBLIC m " as StaticString : "PUBLIC " as StaticString)
                text.appendHex(symbol.address); text.appendByte(UInt8(ascii: " "))
                text.appendHex(symbol.parameterSize); text.appendByte(UInt8(ascii: " "))
                text.append(symbol.name); text.appendByte(UInt8(ascii: "\n"))
            case .function(let size, let lines, let inlines):
                text.append(symbol.isMultiple ? "FUNC m " as StaticString : "FUNC " as StaticString)
                text.appendHex(symbol.address); text.appendByte(UInt8(ascii: " "))
                text.appendHex(size); text.appendByte(UInt8(ascii: " "))
                text.appendHex(symbol.parameterSize); text.appendByte(UInt8(ascii: " "))
                text.append(symbol.name); text.appendByte(UInt8(ascii: "\n"))
                for inline in inlines {
                    text.append("INLINE " as StaticString)
                    text.appendDecimal(UInt64(inline.depth)); text.appendByte(UInt8(ascii: " "))
                    text.appendDecimal(inline.callLine); text.appendByte(UInt8(ascii: " "))
                    text.appendDecimal(UInt64(inline.callFile)); text.appendByte(UInt8(ascii: " "))
                    text.appendDecimal(UInt64(inline.origin))
                    for range in inline.ranges {
                        text.appendByte(UInt8(ascii: " ")); text.appendHex(range.address)
                        text.appendByte(UInt8(ascii: " ")); text.appendHex(range.size)
                    }
                    text.appendByte(UInt8(ascii: "\n"))
                }
                for line in lines {
                    text.appendHex(line.address); text.appendByte(UInt8(ascii: " "))
                    text.appendHex(line.size); text.appendByte(UInt8(ascii: " "))
                    text.appendDecimal(line.line); text.appendByte(UInt8(ascii: " "))
                    text.appendDecimal(UInt64(line.file)); text.appendByte(UInt8(ascii: "\n"))
                }
            }
            flushIfLarge()
        }
        if text.count > 0 { emit(text.bytes) }
        if !file.stackCFI.isEmpty { emit(file.stackCFI) }
    }
}
