import PostmortemCore

extension ReportTextRenderer {
    /// `./sensors(sample_at+0x4a) [0x…] at ./sensors.c:35:12`, preceded by one line per inlined frame.
    func glibcLines(_ frame: CrashFrame, report: CrashReport) -> [String] {
        let module = frame.image.flatMap { report.images[$0].path } ?? ""
        let address = "[0x" + String(frame.address ?? 0, radix: 16) + "]"
        return frame.symbols.map { symbol in
            let name = symbol.function ?? "??"
            if symbol.isInlined {
                return "\(module)(\(name)) \(address)\(Self.location(symbol, prefix: " at ")) (inlined)"
            }
            let call = frame.functionOffset.map { "\(name)+0x\(String($0, radix: 16))" } ?? name
            return "\(module)(\(call)) \(address)\(Self.location(symbol, prefix: " at "))"
        }
    }
}
