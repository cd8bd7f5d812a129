import LogFraming
import PostmortemCore

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
        // By offset over the line's bytes: every line of a report comes here, and steps through the string's views and
        // substrings cost more than the reading. Strings are made of the module and the function only.
        let bytes = line.utf8.span
        var cursor = 0
        while cursor < bytes.count, bytes[cursor].isBlank { cursor += 1 }
        guard let (index, digits) = LineBytes.decimal(in: bytes, at: &cursor), digits > 0, cursor + 1 < bytes.count,
            bytes[cursor] == UInt8(ascii: " "),
            bytes[cursor + 1] == UInt8(ascii: " ")
        else { return nil }
        let rest = LineBytes.trimmed(cursor..<bytes.count, in: bytes)
        // `0xf00800`, possibly followed by rust-minidump's `(unloaded many.dll@0x460)` notes.
        if !rest.isEmpty, bytes[rest.lowerBound] == UInt8(ascii: "0") {
            var wordEnd = rest.lowerBound
            while wordEnd < rest.upperBound, bytes[wordEnd] != UInt8(ascii: " ") { wordEnd += 1 }
            if let address = HexNumber.parse(bytes, rest.lowerBound..<wordEnd) {
                return FrameLine(index: index, address: address, hasLocation: false)
            }
        }
        let bang = LineBytes.firstOffset(of: "!", in: bytes, within: rest)
        if bang == nil, let plus = LineBytes.firstOffset(of: " + 0x", in: bytes, within: rest) {
            guard let offset = HexNumber.parse(bytes, plus + 3..<rest.upperBound) else { return nil }
            return FrameLine(
                index: index, module: LineBytes.text(rest.lowerBound..<plus, of: line), offset: offset,
                hasLocation: false)
        }
        guard let bang, LineBytes.firstOffset(of: " ", in: bytes, within: rest.lowerBound..<bang) == nil else {
            return nil
        }
        var function = bang + 1..<rest.upperBound
        let hasLocation =
            !function.isEmpty && bytes[function.upperBound - 1] == UInt8(ascii: "]")
            && LineBytes.firstOffset(of: " [", in: bytes, within: function) != nil
        if hasLocation, let open = LineBytes.lastOffset(of: " [", in: bytes, within: function) {
            function = function.lowerBound..<open
        }
        var offset: UInt64?
        if let plus = LineBytes.lastOffset(of: " + 0x", in: bytes, within: function),
            let value = HexNumber.parse(bytes, plus + 3..<function.upperBound)
        {
            offset = value
            function = function.lowerBound..<plus
        }
        return FrameLine(
            index: index, module: LineBytes.text(rest.lowerBound..<bang, of: line),
            function: LineBytes.text(function, of: line), offset: offset, hasLocation: hasLocation)
    }

    static func recognizes(_ lines: [LogLine]) -> Bool {
        var system = false, reason = false
        for line in lines {
            if line.textStarts(with: "Operating system:") { system = true }
            if line.textStarts(with: "Crash reason:") { reason = true }
            if line.textStarts(with: "Loaded modules:") && system { return true }
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
            if line.textStarts(with: "Loaded modules:") { inModules = true; continue }
            if inModules {
                let text = line.text
                if let module = module(in: text) {
                    report.images.append(module)
                } else if text.trimmingWhitespace.isEmpty {
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
            // The headers start with a capital letter, frames and registers with a blank or a digit.
            let first = line.firstByte
            if first == UInt8(ascii: "C") || first == UInt8(ascii: "T") || first == UInt8(ascii: "L") {
                if text.hasPrefix("Crash reason:") {
                    let reason = String(text.dropFirst("Crash reason:".count)).trimmingWhitespace
                    if !reason.isEmpty { report.exception = CrashReport.Exception(type: reason, message: nil) }
                }
                if text.hasPrefix("Thread "), !text.hasPrefix("Thread state") {
                    let digits = text.dropFirst("Thread ".count).prefix { $0.isASCIIDigit }
                    threads.begin(
                        CrashThread(
                            index: Int(digits) ?? report.threads.count, name: text,
                            crashed: text.includes("(crashed)"), frames: []), into: &report)
                    continue
                }
                if text.hasPrefix("Loaded modules:") { threads.close(into: &report); break }
            }
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
