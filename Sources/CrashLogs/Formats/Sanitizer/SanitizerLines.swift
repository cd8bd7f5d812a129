extension ReportTextRenderer {
    /// `    #3 0x55d… in check_index /src/sensors.c:30:9`, one numbered line per inlined frame, as the
    /// sanitizers print with `symbolize=1`; without a file, the module and offset follow as they do there.
    /// ThreadSanitizer's frames, which give no pc, as it prints them symbolized: `#0 bump /src/race.c:4:5 (race+0x11e0)`.
    func sanitizerLines(_ frame: CrashFrame, firstNumber: Int, report: CrashReport, indentation: String) -> [String] {
        var module = ""
        if let image = frame.image, let path = report.images[image].path, let offset = frame.imageOffset {
            module = " (\(path)+0x\(String(offset, radix: 16)))"
        }
        guard let pc = frame.address else {
            return frame.symbols.enumerated().map { position, symbol in
                let place = symbol.file == nil ? " <null>" : Self.location(symbol)
                return "\(indentation)#\(firstNumber + position) \(symbol.function ?? "<null>")\(place)\(module)"
            }
        }
        let address = "0x" + String(pc, radix: 16)
        return frame.symbols.enumerated().map { position, symbol in
            let place = symbol.file == nil ? module : Self.location(symbol)
            return "\(indentation)#\(firstNumber + position) \(address) in \(symbol.function ?? "??")\(place)"
        }
    }
}
