import LogFraming

/// Parses glibc `backtrace_symbols` output: `path(sym+0xoff) [0xaddr]`, `path(+0xoff) [0xaddr]`,
/// `path [0xaddr]` and bare `[0xaddr]`, with or without the space before `[`. Runs of frame lines
/// are stacks; other lines are kept as they are.
struct GlibcBacktraceParser {
    /// One frame line, taken apart.
    struct FrameLine: Equatable {
        var module: String?
        var symbol: String?
        var offset: UInt64?
        var address: UInt64
    }

    /// Takes a line apart, or returns `nil` when it is not a frame line.
    static func frame(in line: String) -> FrameLine? {
        guard let parts = frameParts(in: line.utf8.span) else { return nil }
        return FrameLine(
            module: parts.module.map { LineBytes.text($0, of: line) },
            symbol: parts.symbol.map { LineBytes.text($0, of: line) }, offset: parts.offset, address: parts.address)
    }

    /// A frame line's parts, as ranges of its bytes (a non-empty module and symbol, else `nil`).
    struct FrameParts {
        var module: Range<Int>?
        var symbol: Range<Int>?
        var offset: UInt64?
        var address: UInt64
    }

    /// Takes the line in `bytes` apart without making a string: what a report-start test asks of every line that
    /// ends in `]`.
    static func frameParts(in bytes: Span<UInt8>) -> FrameParts? {
        // A frame line ends in `[0x…]`, only blanks after it (a minidump stackwalk's `[file : line]` ends in `]` too).
        var end = bytes.count
        while end > 0, bytes[end - 1].isBlank { end -= 1 }
        guard end > 0, bytes[end - 1] == UInt8(ascii: "]") else { return nil }
        var openOffset = end - 2
        while openOffset >= 0, bytes[openOffset] != UInt8(ascii: "[") { openOffset -= 1 }
        guard openOffset >= 0, let address = HexNumber.parse(bytes, openOffset + 1..<end - 1) else { return nil }
        // By offset: a search of the UTF-8 view's slice for `(` stepped a string index a byte, a long path cost
        // thousands of instructions.
        var prefixEnd = openOffset, prefixStart = 0
        while prefixEnd > prefixStart, bytes[prefixEnd - 1] == UInt8(ascii: " ") { prefixEnd -= 1 }
        while prefixStart < prefixEnd, bytes[prefixStart].isBlank { prefixStart += 1 }
        if prefixStart == prefixEnd { return FrameParts(module: nil, symbol: nil, offset: nil, address: address) }
        guard bytes[prefixEnd - 1] == UInt8(ascii: ")") else {
            // `prog[0x4aee95]`: a module without dladdr information; no spaces in a path we take apart.
            for position in prefixStart..<prefixEnd where bytes[position] == UInt8(ascii: " ") { return nil }
            return FrameParts(module: prefixStart..<prefixEnd, symbol: nil, offset: nil, address: address)
        }
        guard let firstParen = LineBytes.firstOffset(of: "(", in: bytes, within: prefixStart..<prefixEnd) else {
            return nil
        }
        let module = firstParen > prefixStart ? prefixStart..<firstParen : nil
        let inner = firstParen + 1..<prefixEnd - 1
        if inner.isEmpty { return FrameParts(module: module, symbol: nil, offset: nil, address: address) }
        // Anchor on the last `+0x` (or `-0x`): demangled symbols may hold parentheses and commas.
        var sign = inner.upperBound - 1
        while sign >= inner.lowerBound, bytes[sign] != UInt8(ascii: "+"), bytes[sign] != UInt8(ascii: "-") {
            sign -= 1
        }
        guard sign >= inner.lowerBound, let offset = HexNumber.parse(bytes, sign + 1..<inner.upperBound) else {
            return nil
        }
        if bytes[sign] == UInt8(ascii: "-") { return nil } // a negative offset names no place in the symbol
        return FrameParts(
            module: module, symbol: sign == inner.lowerBound ? nil : inner.lowerBound..<sign, offset: offset,
            address: address)
    }

    /// True when the log has a frame line with a module, several bare `[0x…]` lines, or several lines of Darwin's
    /// `backtrace_symbols` (`0   Image   0x10a99b743 symbol + 19`).
    static func recognizes(_ lines: [LogLine]) -> Bool {
        var bare = 0, darwin = 0
        for line in lines {
            let text = line.text
            if darwinFrame(in: text) != nil {
                darwin += 1
                if darwin >= 2 { return true }
                continue
            }
            guard let frame = frame(in: text) else { continue }
            if frame.module != nil { return true }
            bare += 1
            if bare >= 2 { return true }
        }
        return false
    }

    /// A line of Darwin's `backtrace_symbols`: `%-4d%-35s 0x%016lx %s + %lu`, the number, the image, the frame's
    /// address and `symbol + offset` (macOS and iOS write this where glibc writes `module(symbol+0xoff) [0xaddr]`).
    static func darwinFrame(in line: String) -> AppleCrashParser.FrameLine? {
        guard let frame = AppleCrashParser.frame(in: line), frame.symbol != nil, frame.offset != nil else { return nil }
        return frame
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .glibcBacktrace, exception: nil, threads: [], images: [], lines: lines)
        appendStacks(to: &report)
        return report
    }

    /// Adds the glibc stacks of `report`'s lines as threads, skipping lines that are already frames
    /// (a log where a sanitizer report follows a program's own backtrace holds both).
    static func appendStacks(to report: inout CrashReport) {
        let firstAppended = report.threads.count
        defer {
            // The line above a trace is a heading (`Backtrace:`, `Caught signal, backtrace:`), a thread's name only
            // when it names a thread.
            for index in report.threads.indices.dropFirst(firstAppended)
            where !(report.threads[index].name?.lowercased().includes("thread") ?? false) {
                report.threads[index].name = nil
            }
        }
        let lines = report.lines
        // By line number, not hashed: asked twice of every line.
        var claimed = [Bool](repeating: false, count: lines.count)
        for thread in report.threads {
            for frame in thread.frames where claimed.indices.contains(frame.lineNumber) {
                claimed[frame.lineNumber] = true
            }
        }
        var stacks = StackCollector()
        for (number, line) in lines.enumerated() {
            let text = line.text
            if !claimed[number], let darwin = darwinFrame(in: text) {
                let image = report.imageIndex(named: darwin.image, path: nil)
                stacks.append(
                    CrashFrame(
                        index: darwin.index, address: darwin.address,
                        addressKind: darwin.index == 0 ? .programCounter : .returnAddress,
                        image: image, imageOffset: nil, symbolInLog: darwin.symbol, symbolOffsetInLog: darwin.offset,
                        lineNumber: number, lineStyle: darwin.style(in: text)))
                continue
            }
            guard !claimed[number], let parsed = frame(in: text) else {
                stacks.close(into: &report)
                stacks.noteText(text)
                continue
            }
            let image = parsed.module.map { module in
                report.imageIndex(named: Self.fileName(module), path: module)
            }
            // A frame after a signal trampoline is the interrupted instruction, not a return address.
            let afterTrampoline = stacks.current.last.flatMap { $0.symbolInLog }.map(Self.isSignalTrampoline) ?? false
            stacks.append(
                CrashFrame(
                    index: stacks.current.count, address: parsed.address,
                    addressKind: afterTrampoline ? .programCounter : .returnAddress,
                    image: image, imageOffset: parsed.symbol == nil ? parsed.offset : nil,
                    symbolInLog: parsed.symbol, symbolOffsetInLog: parsed.symbol == nil ? nil : parsed.offset,
                    lineNumber: number,
                    lineStyle: .glibc))
        }
        stacks.close(into: &report)
    }

    static func isSignalTrampoline(_ symbol: String) -> Bool {
        symbol == "__restore_rt" || symbol == "__kernel_rt_sigreturn" || symbol == "__kernel_sigreturn"
            || symbol == "_sigtramp"
    }

    static func fileName(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(Substring(path.utf8[path.utf8.index(after: slash)...]))
    }
}
