import PostmortemCore

extension ReportTextRenderer {
    /// The stackwalker's style: ` 3  module!function [file : line]` (`+ 0x…` from the function when the
    /// line is unknown); inlined frames as extra lines with the same number, marked `(inlined)`.
    func breakpadLines(_ frame: CrashFrame, indentation: String, report: CrashReport) -> [String] {
        let module = frame.image.map { report.images[$0].name } ?? "???"
        return frame.symbols.map { symbol in
            var text = "\(indentation)\(frame.index)  \(module)!\(symbol.function ?? "???")"
            if let file = symbol.file, symbol.line > 0 {
                text += " [\(FilePath.fileName(of: file)) : \(symbol.line)]"
            } else if !symbol.isInlined, let offset = frame.functionOffset {
                text += " + 0x" + String(offset, radix: 16)
            }
            return symbol.isInlined ? text + " (inlined)" : text
        }
    }

    /// The stackwalker's machine-readable rows, `thread|frame|module|function|file|line|offset`, one per frame of the
    /// inline chain (inlined ones without an offset).
    func breakpadRows(_ frame: CrashFrame, thread: Int, frameNumber: Int, module: String) -> [String] {
        frame.symbols.map { symbol in
            let offset = symbol.isInlined ? "" : frame.functionOffset.map { "0x" + String($0, radix: 16) } ?? ""
            return
                "\(thread)|\(frameNumber)|\(module)|\(symbol.function ?? "")|\(symbol.file ?? "")|\(symbol.line > 0 ? String(symbol.line) : "")|\(offset)"
        }
    }
}
