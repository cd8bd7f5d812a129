import PostmortemCore

extension ReportTextRenderer {
    /// gdb's style: `#4  0x00005555555553ba in sample_at () at ./sensors.c:35`, inlined frames printed
    /// without an address as gdb prints them, under the frame's own number (frames gdb already named
    /// keep theirs, so numbers are not shifted).
    func gdbLines(_ frame: CrashFrame) -> [String] {
        let digits = String(frame.address ?? 0, radix: 16)
        let address = "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
        return frame.symbols.map { symbol in
            let number = "#\(frame.index)"
            let padding = number.count < 4 ? String(repeating: " ", count: 4 - number.count) : " "
            let name = symbol.function ?? "??"
            var location = ""
            if let file = symbol.file, symbol.line > 0 { location = " at \(file):\(symbol.line)" }
            return symbol.isInlined
                ? "\(number)\(padding)\(name) ()\(location)" : "\(number)\(padding)\(address) in \(name) ()\(location)"
        }
    }
}
