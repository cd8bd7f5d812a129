import PostmortemCore

extension ReportTextRenderer {
    /// `    #3 0x55d… in check_index /src/sensors.c:30:9`, one numbered line per inlined frame, as the
    /// sanitizers print with `symbolize=1`; without a file, the module and offset follow as they do there.
    /// ThreadSanitizer's frames, which give no pc, as it prints them symbolized: `#0 bump /src/race.c:4:5 (race+0x11e0)`.
    func sanitizerLines(_ frame: CrashFrame, firstNumber: Int, report: CrashReport, indentation: String) -> [String] {
        var lines = FrameLineStrings()
        writeSanitizerLines(frame, firstNumber: firstNumber, report: report, indentation: indentation, to: &lines)
        return lines.lines
    }

    /// ``sanitizerLines(_:firstNumber:report:indentation:)`` written to `sink`.
    func writeSanitizerLines<Sink: FrameLineSink>(
        _ frame: CrashFrame, firstNumber: Int, report: CrashReport, indentation: String, to sink: inout Sink
    ) {
        // ` (module+0xoffset)`, where the frame's image has a path and the frame an offset.
        let module: (path: String, offset: UInt64)? = frame.image.flatMap { image in
            guard let path = report.images[image].path, let offset = frame.imageOffset else { return nil }
            return (path, offset)
        }
        func writeModule() {
            guard let module else { return }
            sink.write(" (")
            sink.write(module.path)
            sink.write("+0x")
            sink.write(hexadecimal: module.offset)
            sink.write(")")
        }
        for (position, symbol) in frame.symbols.enumerated() {
            sink.startLine()
            sink.write(indentation)
            sink.write("#")
            sink.write(decimal: firstNumber + position)
            sink.write(" ")
            let hasPlace = symbol.file != nil && symbol.line != 0
            guard let pc = frame.address else {
                sink.write(symbol.function ?? "<null>")
                if hasPlace { Self.writeLocation(symbol, to: &sink) } else { sink.write(" <null>") }
                writeModule()
                continue
            }
            sink.write("0x")
            sink.write(hexadecimal: pc)
            sink.write(" in ")
            sink.write(symbol.function ?? "??")
            if hasPlace { Self.writeLocation(symbol, to: &sink) } else { writeModule() }
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
