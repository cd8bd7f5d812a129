import LogFraming

/// Parses sanitizer reports (ASan, LSan, TSan, MSan, UBSan, HWASan): every stack is a thread titled by
/// the line before it ("freed by thread T0 here:"); frames are `#N 0xPC in func (module+0xoff)`,
/// `#N 0xPC in func file:line:col` or `#N 0xPC (module+0xoff) (BuildId: …)`, and ThreadSanitizer's, which give no pc:
/// `#N func file:line (module+0xoff)`, `#N <null> <null> (module+0xoff)` unsymbolized.
struct SanitizerParser {
    struct FrameLine: Equatable {
        var index: Int
        /// `nil` in ThreadSanitizer's frames, which give the module and offset only.
        var pc: UInt64?
        var function: String?
        var module: String?
        var offset: UInt64?
        var buildID: String?
        /// The `file:line[:column]` of `in func file:line:col`.
        var location: SourceInLog?
    }

    /// Takes a frame line apart over its UTF-8 bytes, by offset in place (this runs on every line of large reports).
    static func frame(in line: String) -> FrameLine? {
        // Cheap test first: a frame line starts with `#` after blanks.
        guard Substring(line).startsWithBytes("#", skippingBlanks: true) else { return nil }
        let bytes = line.utf8.span
        var index = 0
        let count = bytes.count
        while index < count, bytes[index].isBlank { index += 1 }
        guard index < count, bytes[index] == UInt8(ascii: "#") else { return nil }
        index += 1
        var number = 0, digits = 0
        while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39, digits < 9 {
            number = number * 10 + Int(bytes[index] - 0x30)
            index += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        if index < count, bytes[index] == UInt8(ascii: ".") { // Fuchsia's #1.1 inline sub-frames
            index += 1
            while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        }
        guard index < count, bytes[index].isBlank else { return nil }
        while index < count, bytes[index].isBlank { index += 1 }
        guard index + 2 < count, bytes[index] == UInt8(ascii: "0"), bytes[index + 1] | 0x20 == UInt8(ascii: "x")
        else {
            return threadSanitizerFrame(number: number, in: line, from: index)
        }
        index += 2
        var pc: UInt64 = 0
        var hexDigits = 0
        while index < count, let value = hexValue(bytes[index]) {
            guard hexDigits < 16 else { return nil }
            pc = pc << 4 | UInt64(value)
            index += 1
            hexDigits += 1
        }
        guard hexDigits > 0, index == count || bytes[index].isBlank else { return nil }
        var lower = index, upper = count
        while lower < upper, bytes[lower].isBlank { lower += 1 }
        while upper > lower, bytes[upper - 1].isBlank || bytes[upper - 1] == 0x0D { upper -= 1 }
        var frame = FrameLine(index: number, pc: pc, function: nil, module: nil, offset: nil, buildID: nil)
        if upper > lower, bytes[upper - 1] == UInt8(ascii: ")"),
            let build = LineBytes.lastOffset(of: "(BuildId: ", in: bytes, within: lower..<upper)
        {
            frame.buildID = LineBytes.text(build + 10..<upper - 1, of: line)
            upper = build
            while upper > lower, bytes[upper - 1].isBlank { upper -= 1 }
        }
        if upper > lower, bytes[upper - 1] == UInt8(ascii: ")"),
            let open = LineBytes.lastOffset(of: "(", in: bytes, within: lower..<upper - 1),
            let plus = LineBytes.lastOffset(of: "+", in: bytes, within: open + 1..<upper - 1),
            let offset = HexNumber.parse(bytes, plus + 1..<upper - 1)
        {
            var moduleEnd = plus
            // macOS writes `(/path/lib.dylib:x86_64+0x…)`.
            if let colon = LineBytes.lastOffset(of: ":", in: bytes, within: open + 1..<plus),
                LineBytes.lastOffset(of: "/", in: bytes, within: colon..<plus) == nil
            {
                moduleEnd = colon
            }
            frame.module = LineBytes.text(open + 1..<moduleEnd, of: line)
            frame.offset = offset
            upper = open
            while upper > lower, bytes[upper - 1].isBlank { upper -= 1 }
        }
        if upper - lower > 3, bytes[lower] == UInt8(ascii: "i"), bytes[lower + 1] == UInt8(ascii: "n"),
            bytes[lower + 2] == 0x20
        {
            var functionStart = lower + 3
            while functionStart < upper, bytes[functionStart].isBlank { functionStart += 1 }
            var functionEnd = upper
            // `in func file:line:col`: the location is the last word when it has a `:line`.
            if frame.module == nil, let space = LineBytes.lastOffset(of: " ", in: bytes, within: functionStart..<upper),
                LineBytes.lastOffset(of: ":", in: bytes, within: space..<upper) != nil
            {
                functionEnd = space
                frame.location = SourceInLog(parsing: LineBytes.text(space + 1..<upper, of: line))
            }
            if functionEnd > functionStart { frame.function = LineBytes.text(functionStart..<functionEnd, of: line) }
        }
        return frame
    }

    /// ThreadSanitizer's `func file:line (module+0xoff)` after `#N `, from offset `start` of `line`: a frame only when
    /// it ends in a module and offset.
    private static func threadSanitizerFrame(number: Int, in line: String, from start: Int) -> FrameLine? {
        // Looked at before any string is made: a tombstone's stack dump (`#00  0000007fe0ef2070  0000…`) has hundreds
        // of lines that come here and end otherwise.
        let bytes = line.utf8.span
        var end = bytes.count
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0D { end -= 1 }
        guard end > start, bytes[end - 1] == UInt8(ascii: ")") else { return nil }
        let close = end - 1
        guard let open = LineBytes.lastOffset(of: "(", in: bytes, within: start..<close),
            let plus = LineBytes.lastOffset(of: "+", in: bytes, within: open..<close), plus > open + 1,
            let offset = HexNumber.parse(bytes, plus + 1..<close)
        else { return nil }
        // Two words before the module: the function (`<null>` when unsymbolized) and its place.
        var words: [Range<Int>] = []
        var position = start
        while position < open, words.count <= 2 {
            while position < open, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            guard position < open else { break }
            let wordStart = position
            while position < open, bytes[position] != 0x20, bytes[position] != 0x09 { position += 1 }
            words.append(wordStart..<position)
        }
        guard words.count == 2 else { return nil }
        let isNull = words[0].count == 6 && LineBytes.firstOffset(of: "<null>", in: bytes, within: words[0]) != nil
        return FrameLine(
            index: number, pc: nil, function: isNull ? nil : LineBytes.text(words[0], of: line),
            module: LineBytes.text(open + 1..<plus, of: line), offset: offset, buildID: nil)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x61 + 10
        case 0x41...0x46: byte - 0x41 + 10
        default: nil
        }
    }

    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains { line in
            (line.textContains("Sanitizer") && (line.textContains("ERROR: ") || line.textContains("WARNING: ")))
                || line.textContains(": runtime error: ")
        }
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .sanitizer, exception: nil, threads: [], images: [], lines: lines)
        var stacks = StackCollector()
        var summary: String?
        for (number, line) in lines.enumerated() {
            let text = line.text
            guard let parsed = frame(in: text) else {
                let trimmed = Substring(text).trimmingBlanks
                if summary == nil { summary = Self.summaryKind(in: trimmed) }
                // Blank lines may sit between frames (Android); anything else ends the stack.
                if !trimmed.isEmpty {
                    stacks.close(into: &report)
                    stacks.noteText(text)
                    if report.exception == nil, let error = Self.exception(in: trimmed) { report.exception = error }
                }
                continue
            }
            // Numbering that starts again begins a new stack.
            if parsed.index == 0 || (stacks.current.last.map { parsed.index < $0.index } ?? false) {
                stacks.close(into: &report)
            }
            let image = parsed.module.map { module -> Int in
                let index = report.imageIndex(named: GlibcBacktraceParser.fileName(module), path: module)
                if let buildID = parsed.buildID { report.images[index].identify(as: buildID) }
                return index
            }
            // The sanitizers print every frame's pc already moved back by one (the crashing frame too:
            // `pc 0x…326` in the header is `#0 0x…325`) and symbolize what they print: look it up as is.
            let kind = AddressKind.adjustedReturnAddress
            var frame = CrashFrame(
                index: parsed.index, address: parsed.pc, addressKind: kind, image: image,
                imageOffset: parsed.offset, symbolInLog: parsed.function, lineNumber: number,
                lineStyle: .sanitizer(indentation: FrameLineStyle.indentation(of: text)))
            frame.sourceInLog = parsed.location
            stacks.append(frame)
        }
        stacks.close(into: &report)
        for index in report.threads.indices { markInlinedFrames(in: &report.threads[index]) }
        // The kind of error as the sanitizer sums it up, which its first line words less tersely.
        if let kind = summary {
            report.exception = CrashReport.Exception(type: kind, message: report.exception?.message)
        }
        return report
    }

    /// A symbolized report prints each call of an inline chain as a frame of its own, all at the chain's address: a
    /// frame at the address of the next, in the same module, under another name, was inlined into it (a recursive
    /// call returning to one place repeats the name as well as the address).
    static func markInlinedFrames(in thread: inout CrashThread) {
        for index in thread.frames.indices.dropLast() {
            let frame = thread.frames[index], below = thread.frames[index + 1]
            guard let address = frame.address, address == below.address, frame.image == below.image,
                let name = frame.symbolInLog, let belowName = below.symbolInLog, name != belowName
            else { continue }
            thread.frames[index].markInLog = .inlined
        }
    }

    /// `SUMMARY: AddressSanitizer: heap-use-after-free /src/a.c:12:5 in main` → `heap-use-after-free`;
    /// `SUMMARY: ThreadSanitizer: data race /src/a.c:3 in f` → `data race`. `nil` for a summary that names no kind
    /// (LeakSanitizer's `40 byte(s) leaked in 1 allocation(s).`): the first line's words stand then.
    static func summaryKind(in line: Substring) -> String? {
        guard let summary = line.range(of: "SUMMARY: "), let tool = line[summary.upperBound...].range(of: "Sanitizer: ")
        else { return nil }
        var words: [Substring] = []
        // One word (`heap-use-after-free`, `SEGV`), but ThreadSanitizer's kinds run to several (`data race`, `thread
        // leak`) before their place.
        let manyWords = line[summary.upperBound..<tool.lowerBound].hasSuffix("Thread")
        for word in line[tool.upperBound...].spaceSeparatedFields {
            // The kind ends where the place begins: a path, `file:line`, `in function`, `(module+0x…)`, `function(…)`.
            let bytes = word.utf8
            if bytes.first == UInt8(ascii: "/") || bytes.contains(UInt8(ascii: "(")) || word == "in"
                || bytes.contains(UInt8(ascii: ":")) || bytes.first == UInt8(ascii: "<")
            {
                break
            }
            words.append(word)
            if !manyWords { break }
        }
        guard let first = words.first?.first, !first.isNumber else { return nil }
        return words.joined(separator: " ")
    }

    /// `==1==ERROR: AddressSanitizer: heap-use-after-free on address …` → type `heap-use-after-free`.
    static func exception(in line: Substring) -> CrashReport.Exception? {
        for marker in ["ERROR: ", "WARNING: "] {
            guard let range = line.range(of: marker), line[range.upperBound...].includes("Sanitizer") else { continue }
            let message = line[range.upperBound...]
            // (Over bytes: the words of a long first line, split by characters, cost more than the rest of the report.)
            let afterTool = message.firstByteRange(of: ":").map { message[$0.upperBound...] } ?? ""
            // The words before what they concern: `heap-use-after-free` of `… on address 0x…`, `data race` of
            // `data race (pid=4242)`, `detected memory leaks` whole.
            var words: [Substring] = []
            for word in afterTool.trimmingBlanks.lazySpaceSeparatedFields {
                let bytes = word.utf8
                let isPreposition =
                    bytes.count == 2 && ["on", "at", "in", "of"].contains { bytes.elementsEqual($0.utf8) }
                if isPreposition || bytes.first == UInt8(ascii: "(") || bytes.starts(with: "0x".utf8) { break }
                words.append(word)
            }
            return CrashReport.Exception(
                type: words.isEmpty ? nil : words.joined(separator: " "), message: String(message))
        }
        if let range = line.range(of: ": runtime error: ") {
            return CrashReport.Exception(type: "runtime error", message: String(line[range.upperBound...]))
        }
        return nil
    }
}
