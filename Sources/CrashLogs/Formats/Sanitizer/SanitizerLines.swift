import PostmortemCore

extension ReportTextRenderer {
    /// `    #3 0x55d… in check_index /src/sensors.c:30:9`, one numbered line per inlined frame, as the
    /// sanitizers print with `symbolize=1`; without a file, the module and offset follow as they do there.
    /// ThreadSanitizer's frames, which give no pc, as it prints them symbolized: `#0 bump /src/race.c:4:5 (race+0x11e0)`.
    func sanitizerLines(_ frame: CrashFrame, firstNumber: Int, report: CrashReport, indentation: String) -> [String] {
        // Made only for the lines that print it: most frames have a file and line.
        func moduleText() -> String {
            guard let image = frame.image, let path = report.images[image].path, let offset = frame.imageOffset else {
                return ""
            }
            return " (" + path + "+0x" + String(offset, radix: 16) + ")"
        }
        guard let pc = frame.address else {
            let module = moduleText()
            return frame.symbols.enumerated().map { position, symbol in
                let place = symbol.file == nil || symbol.line == 0 ? " <null>" : Self.location(symbol)
                return "\(indentation)#\(firstNumber + position) \(symbol.function ?? "<null>")\(place)\(module)"
            }
        }
        let address = "0x" + String(pc, radix: 16)
        // Each line built in place, sized once: interpolation grew it piece by piece, for every frame of every report.
        return frame.symbols.enumerated().map { position, symbol in
            let function = symbol.function ?? "??"
            var line = indentation
            line.reserveCapacity(
                indentation.utf8.count + address.utf8.count + function.utf8.count + (symbol.file?.utf8.count ?? 64)
                    + 32)
            line += "#"
            line += String(firstNumber + position)
            line += " "
            line += address
            line += " in "
            line += function
            if symbol.file == nil || symbol.line == 0 {
                line += moduleText()
            } else {
                Self.appendLocation(symbol, to: &line)
            }
            return line
        }
    }

    /// The sanitizer's `SUMMARY: AddressSanitizer: SEGV (/path/prog+0x13bc)` as it prints it symbolized: the place of
    /// the frame at that module and offset, innermost inlined frame first (`… SEGV /src/prog.c:22:26 in parse_record`);
    /// `nil` for a line that is no such summary, or whose frame stayed unresolved.
    func sanitizerSummary(_ text: String, report: CrashReport) -> String? {
        // (Asked of every line that is no frame: the test allocates nothing.)
        guard Substring(text).startsWithBytes("SUMMARY: ", skippingBlanks: true),
            let open = text.utf8.lastIndex(of: UInt8(ascii: "(")),
            let close = text.utf8.lastIndex(of: UInt8(ascii: ")")), open < close,
            let plus = text.utf8[open..<close].lastIndex(of: UInt8(ascii: "+")),
            let offset = HexNumber.parse(String(text[text.index(after: plus)..<close]))
        else { return nil }
        let path = String(text[text.index(after: open)..<plus])
        let frame = report.threads.lazy.flatMap(\.frames).first { frame in
            frame.imageOffset == offset && !frame.symbols.isEmpty
                && frame.image.map { report.images[$0].path == path } ?? false
        }
        guard let symbol = frame?.symbols.first, let function = symbol.function else { return nil }
        let place =
            symbol.file == nil || symbol.line == 0 ? String(text[open...close]) : Self.location(symbol, prefix: "")
        var head = String(text[..<open])
        while head.last == " " { head.removeLast() }
        // Unsymbolized, the sanitizer leaves a blank where ` in FUNCTION` goes.
        let tail = String(text[text.index(after: close)...])
        return head + " " + place + " in " + function + (tail.trimmingWhitespace.isEmpty ? "" : tail)
    }
}
