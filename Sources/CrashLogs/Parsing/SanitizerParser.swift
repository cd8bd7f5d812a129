/// Parses sanitizer reports (ASan, LSan, TSan, MSan, UBSan, HWASan): every stack is a thread titled by
/// the line before it ("freed by thread T0 here:"); frames are `#N 0xPC in func (module+0xoff)`,
/// `#N 0xPC in func file:line:col` or `#N 0xPC (module+0xoff) (BuildId: …)`.
struct SanitizerParser {
    struct FrameLine: Equatable {
        var index: Int
        var pc: UInt64
        var function: String?
        var module: String?
        var offset: UInt64?
        var buildID: String?
    }

    static func frame(in line: String) -> FrameLine? {
        var text = Substring(line)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        guard text.first == "#" else { return nil }
        text = text.dropFirst()
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard let index = Int(digits) else { return nil }
        text = text.dropFirst(digits.count)
        if text.first == "." { text = text.dropFirst().drop { $0.isNumber } }  // Fuchsia's #1.1 inline sub-frames
        guard text.first == " " || text.first == "\t" else { return nil }
        text = text.drop { $0 == " " || $0 == "\t" }
        let pcText = text.prefix { $0 != " " && $0 != "\t" }
        guard let pc = HexNumber.parse(pcText) else { return nil }
        var rest = Substring(String(text.dropFirst(pcText.count)).trimmingWhitespace)
        var frame = FrameLine(index: index, pc: pc, function: nil, module: nil, offset: nil, buildID: nil)
        if rest.hasSuffix(")"), let buildRange = rest.lastRange(of: "(BuildId: ") {
            frame.buildID = String(rest[buildRange.upperBound..<rest.index(before: rest.endIndex)])
            rest = Substring(String(rest[..<buildRange.lowerBound]).trimmingWhitespace)
        }
        if rest.hasSuffix(")"), let open = rest.lastIndex(of: "(") {
            let inside = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
            if let plus = inside.lastIndex(of: "+"), let offset = HexNumber.parse(inside[inside.index(after: plus)...]) {
                var module = inside[..<plus]
                // macOS writes `(/path/lib.dylib:x86_64+0x…)`.
                if let colon = module.lastIndex(of: ":"), !module[module.index(after: colon)...].contains("/") { module = module[..<colon] }
                frame.module = String(module)
                frame.offset = offset
                rest = Substring(String(rest[..<open]).trimmingWhitespace)
            }
        }
        if rest.hasPrefix("in ") {
            let function = String(rest.dropFirst(3)).trimmingWhitespace
            // `in func file:line:col`: the location is the last word when it has a `:line`.
            if frame.module == nil, let space = function.lastIndex(of: " "),
               function[function.index(after: space)...].contains(":") {
                frame.function = String(function[..<space])
            } else {
                frame.function = function.isEmpty ? nil : function
            }
        }
        return frame
    }

    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains { line in
            let text = line.text
            return (text.contains("Sanitizer") && (text.contains("ERROR: ") || text.contains("WARNING: ")))
                || text.contains(": runtime error: ")
        }
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .sanitizer, exception: nil, threads: [], images: [], lines: lines)
        var stacks = StackCollector()
        for (number, line) in lines.enumerated() {
            guard let parsed = frame(in: line.text) else {
                let trimmed = line.text.trimmingWhitespace
                // Blank lines may sit between frames (Android); anything else ends the stack.
                if !trimmed.isEmpty {
                    stacks.close(into: &report)
                    stacks.noteText(trimmed)
                    if report.exception == nil, let error = Self.exception(in: trimmed) { report.exception = error }
                }
                continue
            }
            // Numbering that starts again begins a new stack.
            if parsed.index == 0 || (stacks.current.last.map { parsed.index < $0.index } ?? false) { stacks.close(into: &report) }
            let image = parsed.module.map { module -> Int in
                let index = report.imageIndex(named: GlibcBacktraceParser.fileName(module), path: module)
                if let buildID = parsed.buildID { report.images[index].identifier = buildID }
                return index
            }
            // The sanitizers print every frame's pc already moved back by one (the crashing frame too:
            // `pc 0x…326` in the header is `#0 0x…325`) and symbolize what they print: look it up as is.
            let kind = AddressKind.adjustedReturnAddress
            stacks.append(CrashFrame(index: parsed.index, address: parsed.pc, addressKind: kind, image: image,
                                      imageOffset: parsed.offset, symbolInLog: parsed.function, lineNumber: number))
        }
        stacks.close(into: &report)
        return report
    }

    /// `==1==ERROR: AddressSanitizer: heap-use-after-free on address …` → type `heap-use-after-free`.
    static func exception(in line: String) -> CrashReport.Exception? {
        for marker in ["ERROR: ", "WARNING: "] {
            guard let range = line.range(of: marker), line[range.upperBound...].contains("Sanitizer") else { continue }
            let message = String(line[range.upperBound...])
            let afterTool = message.split(separator: ":", maxSplits: 1).dropFirst().first.map { String($0).trimmingWhitespace }
            let type = afterTool?.split(separator: " ").first.map(String.init)
            return CrashReport.Exception(type: type, message: message)
        }
        if let range = line.range(of: ": runtime error: ") {
            return CrashReport.Exception(type: "runtime error", message: String(line[range.upperBound...]))
        }
        return nil
    }
}

extension StringProtocol {
    /// The last occurrence of `needle`, without Foundation.
    func lastRange(of needle: String) -> Range<Index>? {
        guard !needle.isEmpty else { return nil }
        var index = endIndex
        while index > startIndex {
            index = self.index(before: index)
            if self[index...].hasPrefix(needle) { return index..<self.index(index, offsetBy: needle.count) }
        }
        return nil
    }

    /// The first occurrence of `needle`, without Foundation.
    func range(of needle: String) -> Range<Index>? {
        guard !needle.isEmpty else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(needle) { return index..<self.index(index, offsetBy: needle.count) }
            index = self.index(after: index)
        }
        return nil
    }
}
