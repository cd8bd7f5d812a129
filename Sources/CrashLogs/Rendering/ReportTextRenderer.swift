import LogFraming
import PostmortemCore

/// Prints a report in its own format with symbols in place. Lines that are not frames, and frames
/// that stayed unresolved, come out byte for byte as they went in.
public struct ReportTextRenderer: Sendable {
    /// Colours for a terminal; `nil` prints plain text (files, pipes).
    public var colors: TerminalColors?

    /// A renderer; with `colors`, for a terminal.
    public init(colors: TerminalColors? = nil) {
        self.colors = colors
    }

    /// `report` printed in its own format, each line as the log had it with what symbolication found put in place.
    public func render(_ report: CrashReport) -> [UInt8] {
        if report.threads.contains(where: { $0.frames.contains { $0.byteRange != nil } }) {
            return Self.prefixed(renderJSONFrames(report), like: report.lines)
        }
        let reader = CrashLogParser.reader(of: report.format)
        if let whole = reader.renderedWhole(report, by: self) { return whole }
        // Most reports of a folder from elsewhere resolve nothing: each line comes out as the log had it, with none of
        // the look-ups below (a tombstone's ten thousand lines asked each of them).
        if colors == nil, !report.threads.contains(where: { $0.frames.contains { !$0.symbols.isEmpty } }) {
            return report.bytesAsRead ?? LogLine.joinedWholeBytes(report.lines)
        }
        // Where each resolved frame lies in the report, by its line: frames are large values, read where they lie
        // (a walked overflow has a thousand of them).
        var framesByLine: [Int: (thread: Int, frame: Int)] = [:]
        framesByLine.reserveCapacity(report.threads.reduce(0) { $0 + $1.frames.count })
        func frame(onLine number: Int) -> CrashFrame? {
            framesByLine[number].map { report.threads[$0.thread].frames[$0.frame] }
        }
        // Sanitizers number every inlined frame: resolved frames are renumbered as they would print them.
        var numbersByLine: [Int: Int] = [:]
        // Unresolved frames after an expanded one keep their line, numbered on as the sanitizer would number it.
        var renumberedLines: [Int: (from: Int, to: Int)] = [:]
        for (threadIndex, thread) in report.threads.enumerated() {
            var added = 0
            for frameIndex in thread.frames.indices {
                let lineNumber = thread.frames[frameIndex].lineNumber, index = thread.frames[frameIndex].index
                let symbolCount = thread.frames[frameIndex].symbols.count
                guard symbolCount > 0 else {
                    if added > 0, case .sanitizer = thread.frames[frameIndex].lineStyle {
                        renumberedLines[lineNumber] = (index, index + added)
                    }
                    continue
                }
                framesByLine[lineNumber] = (threadIndex, frameIndex)
                numbersByLine[lineNumber] = index + added
                added += symbolCount - 1
            }
        }
        let layout = reader.laidOutLines(of: report)
        let unresolvedLines = unresolvedFrameLines(of: report)
        var output: [UInt8] = []
        for (number, line) in report.lines.enumerated() {
            if var rendered = layout[number] {
                let frame = frame(onLine: number)
                if let colors, let frame { rendered = colors.frameLines(rendered, frame: frame) }
                if let frame, rendered.count == frame.symbols.count {
                    // A line per frame of the inline chain: each its own source (the crashing frames', at the fault, too).
                    rendered = zip(rendered, frame.symbols).flatMap { [$0] + ($1.source?.renderedLines() ?? []) }
                } else if !rendered.isEmpty, let source = frame?.symbols.first?.source {
                    rendered += source.renderedLines()
                }
                line.appendRewritten(rendered, to: &output)
                continue
            }
            guard let frame = frame(onLine: number) else {
                if let rewritten = reader.rewrittenLine(line.text, of: report, by: self) {
                    line.appendRewritten([rewritten], to: &output)
                    continue
                }
                if let numbers = renumberedLines[number],
                    let renumbered = Self.renumbered(line.text, from: numbers.from, to: numbers.to)
                {
                    let text =
                        colors.map { $0.untouchedLine(renumbered, isUnresolvedFrame: unresolvedLines.contains(number)) }
                        ?? renumbered
                    line.appendRewritten([text], to: &output)
                    continue
                }
                appendUntouched(line, isUnresolvedFrame: unresolvedLines.contains(number), to: &output)
                continue
            }
            var rendered: [String]
            switch frame.lineStyle {
            case .swiftBacktrace:
                // A frame of a thread the layout left alone: nothing of it resolved.
                line.appendWhole(to: &output)
                continue
            case .darwin(let headLength):
                rendered = appleLines(frame, prefix: Self.head(of: line.text, length: headLength), report: report)
            case .androidTombstone(let headLength, let buildID):
                rendered =
                    headLength.map {
                        tombstoneLines(frame, head: Self.head(of: line.text, length: $0), buildID: buildID)
                    } ?? [line.text]
            case .lldb(let headLength):
                rendered = lldbLines(frame, prefix: Self.head(of: line.text, length: headLength), report: report)
            case .breakpadMachineReadable(let thread, let frameNumber, let module):
                rendered = breakpadRows(frame, thread: thread, frameNumber: frameNumber, module: module)
            case .breakpad(let indentation):
                rendered = breakpadLines(frame, indentation: String(repeating: " ", count: indentation), report: report)
            case .systemdCoredump(let headLength, let module, let offset):
                rendered = coredumpLines(
                    frame, head: Self.head(of: line.text, length: headLength), module: module, offset: offset)
            case .unwound(let headLength, let module, let offset):
                let head = Self.head(of: line.text, length: headLength)
                // A stack overflow's walk has a thousand frames.
                if writesInPlace(
                    frame, replacing: line, to: &output,
                    { sink in
                        writeUnwoundLines(frame, head: head, module: module, offset: offset, to: &sink)
                    })
                {
                    continue
                }
                rendered = unwoundLines(frame, head: head, module: module, offset: offset)
            case .gdb:
                rendered = gdbLines(frame)
            case .sanitizer(let indentation):
                let head = Self.head(of: line.text, length: indentation)
                let firstNumber = numbersByLine[number] ?? frame.index
                // Thousands of reports of a fuzzer's log: a string per line no more.
                if writesInPlace(
                    frame, replacing: line, to: &output,
                    { sink in
                        writeSanitizerLines(
                            frame, firstNumber: firstNumber, report: report, indentation: head, to: &sink)
                    })
                {
                    continue
                }
                rendered = sanitizerLines(frame, firstNumber: firstNumber, report: report, indentation: head)
            case .glibc, .addressList, .jsonObject:
                rendered = glibcLines(frame, report: report)
            }
            if let colors { rendered = colors.frameLines(rendered, frame: frame) }
            let excerpt = frame.symbols.first?.source?.renderedLines() ?? []
            line.appendRewritten(rendered + excerpt, to: &output)
        }
        return output
    }

    /// Writes `frame`'s plain lines with `write` straight into `output` in `line`'s place, when they are plain (no
    /// colours, no source excerpt) and the line came in no JSON object; `false` when they are not, and nothing is written.
    private func writesInPlace(
        _ frame: CrashFrame, replacing line: LogLine, to output: inout [UInt8], _ write: (inout FrameLineBytes) -> Void
    ) -> Bool {
        guard colors == nil, frame.symbols.first?.source == nil, var sink = FrameLineBytes(replacing: line) else {
            return false
        }
        swap(&sink.bytes, &output)
        write(&sink)
        sink.finish()
        swap(&sink.bytes, &output)
        return true
    }

    /// `text` with its frame number `#from` (the first `#` of the line) written `#to`; `nil` when it has none.
    static func renumbered(_ text: String, from: Int, to: Int) -> String? {
        guard let hash = text.firstIndex(of: "#"), text[text.index(after: hash)...].hasPrefix(String(from)) else {
            return nil
        }
        let digitsEnd = text.index(hash, offsetBy: 1 + String(from).count)
        return String(text[...hash]) + String(to) + String(text[digitsEnd...])
    }

    /// The lines of frames that have an address or offset and stayed unresolved (coloured as such on a terminal);
    /// none without colours.
    func unresolvedFrameLines(of report: CrashReport) -> Set<Int> {
        guard colors != nil else { return [] }
        var lines = Set<Int>()
        for thread in report.threads {
            for frame in thread.frames where frame.symbols.isEmpty && frame.unresolvedReason != nil {
                lines.insert(frame.lineNumber)
            }
        }
        return lines
    }

    /// A line symbolication left alone, as the log had it (coloured on a terminal).
    func appendUntouched(_ line: LogLine, isUnresolvedFrame: Bool, to output: inout [UInt8]) {
        if let colors {
            let painted = colors.untouchedLine(line.text, isUnresolvedFrame: isUnresolvedFrame)
            if painted != line.text {
                line.appendRewritten([painted], to: &output)
                return
            }
        }
        line.appendWhole(to: &output)
    }

    /// `bytes`, a rendering of `lines` without their prefixes (and out of their JSON objects), with each line put back
    /// as the line of the same number was: the last line's way for any line a rendering added.
    static func prefixed(_ bytes: [UInt8], like lines: [LogLine]) -> [UInt8] {
        guard lines.contains(where: { !$0.prefix.isEmpty || $0.envelope != nil }) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var number = 0
        var start = 0
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? bytes.count
            var contentEnd = end
            if newline != nil, contentEnd > start, bytes[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
            let line = lines[min(number, lines.count - 1)]
            if line.envelope == nil {
                // Byte for byte: a line that is not valid UTF-8 stays as it was.
                output += line.prefix.utf8
                output += bytes[start..<min(end + 1, bytes.count)]
            } else {
                let text = String(decoding: bytes[start..<contentEnd], as: UTF8.self)
                let ending = newline == nil ? [] : Array(bytes[contentEnd...end])
                // A line the rendering left alone keeps its object's bytes, escapes as the logger wrote them.
                if number < lines.count, text == line.text, ending == line.ending {
                    line.appendWhole(to: &output)
                } else {
                    line.appendRewritten([text], to: &output)
                }
            }
            number += 1
            start = end + 1
        }
        return output
    }

    /// A JSON report (an `.ips` body, the Swift backtracer's JSON): each resolved frame object rewritten in place, in
    /// its format's style (``CrashLogFormatReader/symbolicatedJSONObjects(_:kept:members:bytes:report:)``). Every other
    /// byte stays as it was.
    private func renderJSONFrames(_ report: CrashReport) -> [UInt8] {
        let bytes = LogLine.joinedBytes(report.lines)
        let frames = report.threads.flatMap(\.frames).filter { $0.byteRange != nil && !$0.symbols.isEmpty }
            .sorted { $0.byteRange!.lowerBound < $1.byteRange!.lowerBound }
        var output: [UInt8] = []
        var cursor = 0
        for frame in frames {
            guard let range = frame.byteRange, range.lowerBound >= cursor, range.upperBound <= bytes.count,
                let original = try? JSONParser.parse(bytes, range: range), case .object(let members) = original.value
            else { continue }
            output += bytes[cursor..<range.lowerBound]
            let kept = members.filter { !XcodeJSONFrames.symbolFields.contains($0.key) }
            let objects = CrashLogParser.reader(of: report.format).symbolicatedJSONObjects(
                frame, kept: kept, members: members, bytes: bytes, report: report)
            output += Array(objects.joined(separator: ",").utf8)
            cursor = range.upperBound
        }
        output += bytes[cursor...]
        return output
    }

    /// The first `length` UTF-8 bytes of `text`: the part of a frame's line its parser recorded as kept.
    static func head(of text: String, length: Int) -> String {
        String(decoding: text.utf8.prefix(max(0, length)), as: UTF8.self)
    }

    /// `FILE:LINE[:COLUMN]` after `prefix`; nothing when no line is known: a file alone (line 0, as glibc's
    /// assembly and compiler-made code have) places nothing, and llvm-symbolizer's `FILE:0` reads as a wrong line.
    static func location(_ symbol: SymbolicatedFrame, prefix: String = " ") -> String {
        var text = FrameLineStrings()
        text.startLine()
        writeLocation(symbol, prefix: prefix, to: &text)
        return text.lines[0]
    }

    /// Writes ``location(_:prefix:)`` to `sink`'s current line.
    static func writeLocation<Sink: FrameLineSink>(
        _ symbol: SymbolicatedFrame, prefix: String = " ", to sink: inout Sink
    ) {
        guard let file = symbol.file, symbol.line > 0 else { return }
        sink.write(prefix)
        sink.write(file)
        sink.write(":")
        sink.write(decimal: symbol.line)
        if symbol.column > 0 {
            sink.write(":")
            sink.write(decimal: symbol.column)
        }
    }
}
