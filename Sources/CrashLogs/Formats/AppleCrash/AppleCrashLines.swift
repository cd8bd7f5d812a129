import PostmortemCore

extension ReportTextRenderer {
    /// symbolicatecrash's style: the frame's text up to its address, then `func (in Image) (File.m:94)`,
    /// or `func (in Image) + 12` without a line; inlined frames as extra lines with the same number.
    func appleLines(_ frame: CrashFrame, prefix: String, report: CrashReport) -> [String] {
        let image = frame.image.map { report.images[$0].name } ?? "???"
        return frame.symbols.map { symbol in
            let name = symbol.function ?? "???"
            if let file = symbol.file, symbol.line > 0 || symbol.isInlined {
                let fileName = FilePath.fileName(of: file)
                return "\(prefix) \(name) (in \(image)) (\(fileName):\(symbol.line))"
            }
            let offset = symbol.isInlined ? "" : frame.functionOffset.map { " + \($0)" } ?? ""
            return "\(prefix) \(name) (in \(image))\(offset)"
        }
    }
}
