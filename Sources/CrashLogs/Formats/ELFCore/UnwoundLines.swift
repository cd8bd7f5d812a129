import PostmortemCore

extension ReportTextRenderer {
    /// An unwound frame's lines, innermost inlined frame first: `#1  0x… middle + 0x15 (mt + 0x1225) at mt.c:6:55 [cfi]`,
    /// each inlined frame on a line of its own with the same head, marked `(inlined)`; a Swift thunk marked `[thunk]`.
    func unwoundLines(_ frame: CrashFrame, head: String, module: String, offset: UInt64) -> [String] {
        var lines = FrameLineStrings()
        writeUnwoundLines(frame, head: head, module: module, offset: offset, to: &lines)
        return lines.lines
    }

    /// Writes ``unwoundLines(_:head:module:offset:)`` to `sink`: a walk of a thousand frames writes them into the
    /// printed report's bytes, with no string built per line.
    func writeUnwoundLines<Sink: FrameLineSink>(
        _ frame: CrashFrame, head: String, module: String, offset: UInt64, to sink: inout Sink
    ) {
        for symbol in frame.symbols {
            sink.startLine()
            sink.write(head)
            sink.write(symbol.function ?? "??")
            if !symbol.isInlined, let functionOffset = frame.functionOffset {
                sink.write(" + 0x")
                sink.write(hexadecimal: functionOffset)
            }
            sink.write(" (")
            sink.write(module)
            sink.write(" + 0x")
            sink.write(hexadecimal: offset)
            sink.write(")")
            Self.writeLocation(symbol, prefix: " at ", to: &sink)
            // Thunks are marked as the Swift runtime's backtracer marks them, before how the frame was found.
            if symbol.isThunk { sink.write(" [thunk]") }
            if symbol.isInlined {
                sink.write(" (inlined)")
            } else if let trust = frame.trust {
                sink.write(" [")
                sink.write(trust.rawValue)
                sink.write("]")
            }
        }
    }
}
