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
        let digits = text.prefix { $0.isASCIIDigit }
        guard let index = Int(digits) else { return nil }
        text = text.dropFirst(digits.count)
        if text.first == "." { text = text.dropFirst().drop { $0.isASCIIDigit } }  // Fuchsia's #1.1 inline sub-frames
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
                if let colon = module.lastIndex(of: ":"), !module[module.index(after: colon)...].includes("/") { module = module[..<colon] }
                frame.module = String(module)
                frame.offset = offset
                rest = Substring(String(rest[..<open]).trimmingWhitespace)
            }
        }
        if rest.hasPrefix("in ") {
            let function = String(rest.dropFirst(3)).trimmingWhitespace
            // `in func file:line:col`: the location is the last word when it has a `:line`.
            if frame.module == nil, let space = function.lastIndex(of: " "),
               function[function.index(after: space)...].includes(":") {
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
            return (text.includes("Sanitizer") && (text.includes("ERROR: ") || text.includes("WARNING: ")))
                || text.includes(": runtime error: ")
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
            guard let range = line.range(of: marker), line[range.upperBound...].includes("Sanitizer") else { continue }
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
    /// The last occurrence of `needle`, found over UTF-8 bytes (no Foundation, no grapheme walking).
    func lastRange(of needle: String) -> Range<Index>? {
        let haystack = Array(utf8), pattern = Array(needle.utf8)
        guard !pattern.isEmpty, pattern.count <= haystack.count else { return nil }
        var start = haystack.count - pattern.count
        while start >= 0 {
            if haystack[start] == pattern[0], haystack[start..<start + pattern.count].elementsEqual(pattern) {
                let lower = utf8.index(utf8.startIndex, offsetBy: start)
                return lower..<utf8.index(lower, offsetBy: pattern.count)
            }
            start -= 1
        }
        return nil
    }

    /// The first occurrence of `needle`, found over UTF-8 bytes.
    func range(of needle: String) -> Range<Index>? {
        guard let start = byteOffset(of: needle) else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: start)
        return lower..<utf8.index(lower, offsetBy: needle.utf8.count)
    }

    /// True when `needle` occurs in the text.
    func includes(_ needle: String) -> Bool { byteOffset(of: needle) != nil }

    private func byteOffset(of needle: String) -> Int? {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return nil }
        return utf8.withContiguousStorageIfAvailable { haystack -> Int? in
            guard pattern.count <= haystack.count else { return nil }
            var index = 0
            let last = haystack.count - pattern.count
            while index <= last {
                if haystack[index] == first {
                    var matched = 1
                    while matched < pattern.count, haystack[index + matched] == pattern[matched] { matched += 1 }
                    if matched == pattern.count { return index }
                }
                index += 1
            }
            return nil
        } ?? {
            let haystack = Array(utf8)
            guard pattern.count <= haystack.count else { return nil }
            for index in 0...(haystack.count - pattern.count) where haystack[index..<index + pattern.count].elementsEqual(pattern) { return index }
            return nil
        }()
    }
}

extension Character {
    /// `0`…`9`, without Unicode property lookups.
    var isASCIIDigit: Bool { asciiValue.map { $0 >= 48 && $0 <= 57 } ?? false }
}
