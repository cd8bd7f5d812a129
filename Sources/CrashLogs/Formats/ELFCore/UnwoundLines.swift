import PostmortemCore

extension ReportTextRenderer {
    /// An unwound frame's lines, innermost inlined frame first: `#1  0x… middle + 0x15 (mt + 0x1225) at mt.c:6:55 [cfi]`,
    /// each inlined frame on a line of its own with the same head, marked `(inlined)`; a Swift thunk marked `[thunk]`.
    func unwoundLines(_ frame: CrashFrame, head: String, module: String, offset: UInt64) -> [String] {
        let place = " (\(module) + 0x\(String(offset, radix: 16)))"
        let mark = frame.trust.map { " [\($0.rawValue)]" } ?? ""
        return frame.symbols.map { symbol in
            let name = symbol.function ?? "??"
            let functionOffset =
                symbol.isInlined ? "" : frame.functionOffset.map { " + 0x" + String($0, radix: 16) } ?? ""
            // Thunks are marked as the Swift runtime's backtracer marks them, before how the frame was found.
            let thunk = symbol.isThunk ? " [thunk]" : ""
            return head + name + functionOffset + place + Self.location(symbol, prefix: " at ") + thunk
                + (symbol.isInlined ? " (inlined)" : mark)
        }
    }
}
