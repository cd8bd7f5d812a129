import PostmortemCore

extension ReportTextRenderer {
    /// lldb's style: `frame #3: 0x… App`sample_at + 20 at sensors.c:17:44`; inlined frames as extra lines
    /// with the same number, marked `[inlined]` as lldb marks them.
    func lldbLines(_ frame: CrashFrame, prefix: String, report: CrashReport) -> [String] {
        let module = frame.image.map { report.images[$0].name } ?? "???"
        return frame.symbols.map { symbol in
            var text = "\(prefix)\(module)`\(symbol.function ?? "???")"
            if !symbol.isInlined, let offset = frame.functionOffset { text += " + \(offset)" }
            if let file = symbol.file, symbol.line > 0 {
                text += " at \(FilePath.fileName(of: file)):\(symbol.line)"
                if symbol.column > 0 { text += ":\(symbol.column)" }
            }
            return symbol.isInlined ? text + " [inlined]" : text
        }
    }
}
