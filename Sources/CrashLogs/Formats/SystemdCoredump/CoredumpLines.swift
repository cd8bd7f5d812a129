import PostmortemCore

extension ReportTextRenderer {
    /// systemd-coredump's line with the function named and the source position after the module: `#0  0x… scale
    /// (app + 0x1290) at crash.c:26:18`; inlined frames as extra lines with the same number, marked `(inlined)`.
    func coredumpLines(_ frame: CrashFrame, head: String, module name: String, offset: UInt64) -> [String] {
        let module = " (\(name) + 0x\(String(offset, radix: 16)))"
        return frame.symbols.map { symbol in
            head + (symbol.function ?? "n/a") + module + Self.location(symbol, prefix: " at ")
                + (symbol.isInlined ? " (inlined)" : "")
        }
    }
}
