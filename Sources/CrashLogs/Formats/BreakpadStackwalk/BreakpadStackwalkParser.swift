import LogFraming

/// Parses the human output of breakpad's `minidump_stackwalk` and rust-minidump's `minidump-stackwalk`:
/// `Thread N (crashed)` blocks of ` 0  module!func [file : line + 0xc]`, ` 3  module + 0x1234` or
/// ` 4  0x7ffe…` frames (register and `Found by:` lines below each), and `Loaded modules:` with base addresses.
struct BreakpadStackwalkParser {
    struct FrameLine: Equatable {
        var index: Int
        var module: String?
        var function: String?
        var offset: UInt64?
        var address: UInt64?
        var hasLocation: Bool
    }

    static func frame(in line: String) -> FrameLine? {
        // The frame's number and the two spaces after it, over the bytes: every line of a report comes here, and
        // walking characters to find the number cost more than the rest of the reading.
        let utf8 = line.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex, utf8[start].isBlank { utf8.formIndex(after: &start) }
        let text = Substring(utf8[start...])
        guard let (index, digitsEnd) = text.leadingDecimal(), text.utf8[digitsEnd...].starts(with: "  ".utf8) else {
            return nil
        }
        let rest = String(text[digitsEnd...]).trimmingWhitespace
        // `0xf00800`, possibly followed by rust-minidump's `(unloaded many.dll@0x460)` notes.
        if rest.utf8.first == UInt8(ascii: "0"), let address = HexNumber.parse(utf8: rest.utf8.prefix { $0 != 0x20 }) {
            return FrameLine(index: index, address: address, hasLocation: false)
        }
        if let plus = rest.range(of: " + 0x"), !rest.includes("!") {
            guard let offset = HexNumber.parse("0x" + rest[plus.upperBound...]) else { return nil }
            return FrameLine(index: index, module: String(rest[..<plus.lowerBound]), offset: offset, hasLocation: false)
        }
        // The `!` found over the bytes: a search by character walks graphemes, most of a long frame line's reading.
        guard let bang = Substring(rest).firstIndex(ofByte: UInt8(ascii: "!")) else { return nil }
        let module = String(rest[..<bang])
        guard !module.includes(" ") else { return nil }
        var function = String(rest[rest.index(after: bang)...])
        let hasLocation = function.hasSuffix("]") && function.includes(" [")
        if hasLocation, let open = function.lastRange(of: " [") { function = String(function[..<open.lowerBound]) }
        var offset: UInt64?
        if let plus = function.lastRange(of: " + 0x"), let value = HexNumber.parse("0x" + function[plus.upperBound...])
        {
            offset = value
            function = String(function[..<plus.lowerBound])
        }
        return FrameLine(index: index, module: module, function: function, offset: offset, hasLocation: hasLocation)
    }

    static func recognizes(_ lines: [LogLine]) -> Bool {
        var system = false, reason = false
        for line in lines {
            if line.text.hasPrefix("Operating system:") { system = true }
            if line.text.hasPrefix("Crash reason:") { reason = true }
            if line.text.hasPrefix("Loaded modules:") && system { return true }
        }
        return system && reason
    }

    /// `0x555f608000 - 0x555f6c7fff  breakpad_unittests  ???  (main)`.
    static func module(in line: String) -> CrashImage? {
        let fields = line.spaceSeparatedFields
        guard fields.count >= 4, fields[1] == "-", let start = HexNumber.parse(fields[0]),
            let end = HexNumber.parse(fields[2])
        else { return nil }
        return CrashImage(name: String(fields[3]), path: nil, loadAddress: start, endAddress: end)
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .breakpadStackwalk, exception: nil, threads: [], images: [], lines: lines)
        var inModules = false
        for line in lines {
            if line.text.hasPrefix("Loaded modules:") { inModules = true; continue }
            if inModules {
                if let module = module(in: line.text) {
                    report.images.append(module)
                } else if line.text.trimmingWhitespace.isEmpty {
                    inModules = false
                }
            }
        }
        var threads = ThreadBuilder()
        var foundByInlining: Set<Int> = []
        for (number, line) in lines.enumerated()
        where line.firstByte == UInt8(ascii: " ") && Substring(line.text).trimmingBlanks == "Found by: inlining" {
            // The frame line above the registers: the nearest frame line before it.
            var above = number - 1
            while above >= 0, frame(in: lines[above].text) == nil { above -= 1 }
            if above >= 0 { foundByInlining.insert(above) }
        }
        for (number, line) in lines.enumerated() {
            let text = line.text
            if text.hasPrefix("Crash reason:") {
                let reason = String(text.dropFirst("Crash reason:".count)).trimmingWhitespace
                if !reason.isEmpty { report.exception = CrashReport.Exception(type: reason, message: nil) }
            }
            if text.hasPrefix("Thread "), !text.hasPrefix("Thread state") {
                let digits = text.dropFirst("Thread ".count).prefix { $0.isASCIIDigit }
                threads.begin(
                    CrashThread(
                        index: Int(digits) ?? report.threads.count, name: text, crashed: text.includes("(crashed)"),
                        frames: []), into: &report)
                continue
            }
            if text.hasPrefix("Loaded modules:") { threads.close(into: &report); break }
            guard threads.isOpen, let parsed = frame(in: text) else { continue }
            let image =
                parsed.module.flatMap { module in report.images.firstIndex { $0.name == module } }
                ?? parsed.address.flatMap { address in
                    report.images.firstIndex { ($0.loadAddress ?? .max) <= address && address <= ($0.endAddress ?? 0) }
                }
            var frame = CrashFrame(
                index: parsed.index, address: parsed.address,
                addressKind: parsed.index == 0 ? .programCounter : .returnAddress, image: image,
                imageOffset: parsed.function == nil ? parsed.offset : nil, symbolInLog: parsed.function,
                symbolOffsetInLog: parsed.function == nil ? nil : parsed.offset, lineNumber: number,
                lineStyle: .breakpad(indentation: text.utf8.prefix { $0 == UInt8(ascii: " ") }.count))
            if frame.imageOffset == nil, let address = parsed.address, let image,
                let base = report.images[image].loadAddress, address >= base
            {
                frame.imageOffset = address - base
            }
            frame.isSymbolicatedInLog = parsed.hasLocation || foundByInlining.contains(number)
            threads.append(frame)
        }
        threads.close(into: &report)
        return report
    }
}
