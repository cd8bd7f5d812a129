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
        if report.format == .nsException { return renderNSException(report) }
        var framesByLine: [Int: CrashFrame] = [:]
        // Sanitizers number every inlined frame: resolved frames are renumbered as they would print them.
        var numbersByLine: [Int: Int] = [:]
        for thread in report.threads {
            var added = 0
            for frame in thread.frames where !frame.symbols.isEmpty {
                framesByLine[frame.lineNumber] = frame
                numbersByLine[frame.lineNumber] = frame.index + added
                added += frame.symbols.count - 1
            }
        }
        // The Swift backtracer's threads are laid out as a whole (their columns follow their widest frame).
        let swiftLayout = report.format == .swiftBacktrace ? SwiftBacktraceLayout.lines(of: report) : [:]
        // Frames that have an address or offset and stayed unresolved, by line (coloured as such on a terminal).
        var unresolvedLines = Set<Int>()
        if colors != nil {
            for thread in report.threads {
                for frame in thread.frames where frame.symbols.isEmpty && frame.unresolvedReason != nil { unresolvedLines.insert(frame.lineNumber) }
            }
        }
        var output: [UInt8] = []
        for (number, line) in report.lines.enumerated() {
            if var rendered = swiftLayout[number] {
                let ending = line.ending.isEmpty ? [UInt8(ascii: "\n")] : line.ending
                if let colors, let frame = framesByLine[number] { rendered = colors.frameLines(rendered, frame: frame) }
                if !rendered.isEmpty, let source = framesByLine[number]?.symbols.first?.source {
                    rendered += source.renderedLines()
                }
                for (index, text) in rendered.enumerated() {
                    output += line.prefix.utf8
                    output += Array(text.utf8)
                    output += index == rendered.count - 1 ? line.ending : ending
                }
                continue
            }
            guard let frame = framesByLine[number] else {
                if let colors {
                    let isUnresolved = unresolvedLines.contains(number)
                    let painted = colors.untouchedLine(line.text, isUnresolvedFrame: isUnresolved)
                    if painted != line.text {
                        output += line.prefix.utf8
                        output += Array(painted.utf8)
                        output += line.ending
                        continue
                    }
                }
                line.appendWhole(to: &output)
                continue
            }
            let ending = line.ending.isEmpty ? [UInt8(ascii: "\n")] : line.ending
            var rendered: [String]
            switch frame.lineStyle {
            case .swiftBacktrace:
                // A frame of a thread the layout left alone: nothing of it resolved.
                line.appendWhole(to: &output)
                continue
            case .darwin(let headLength):
                rendered = appleLines(frame, prefix: Self.head(of: line.text, length: headLength), report: report)
            case .androidTombstone(let headLength, let buildID):
                rendered = headLength.map { tombstoneLines(frame, head: Self.head(of: line.text, length: $0), buildID: buildID) } ?? [line.text]
            case .lldb(let headLength):
                rendered = lldbLines(frame, prefix: Self.head(of: line.text, length: headLength), report: report)
            case .breakpadMachineReadable(let thread, let frameNumber, let module):
                rendered = frame.symbols.map { symbol in
                    let offset = symbol.isInlined ? "" : frame.functionOffset.map { "0x" + String($0, radix: 16) } ?? ""
                    return "\(thread)|\(frameNumber)|\(module)|\(symbol.function ?? "")|\(symbol.file ?? "")|\(symbol.line > 0 ? String(symbol.line) : "")|\(offset)"
                }
            case .breakpad(let indentation):
                rendered = breakpadLines(frame, indentation: String(repeating: " ", count: indentation), report: report)
            case .systemdCoredump(let headLength, let module, let offset):
                rendered = coredumpLines(frame, head: Self.head(of: line.text, length: headLength), module: module, offset: offset)
            case .gdb:
                rendered = gdbLines(frame)
            case .sanitizer(let indentation):
                rendered = sanitizerLines(frame, firstNumber: numbersByLine[number] ?? frame.index, report: report,
                                          indentation: Self.head(of: line.text, length: indentation))
            case .glibc, .addressList, .jsonObject:
                rendered = glibcLines(frame, report: report)
            }
            if let colors { rendered = colors.frameLines(rendered, frame: frame) }
            let excerpt = frame.symbols.first?.source?.renderedLines() ?? []
            for (index, text) in (rendered + excerpt).enumerated() {
                output += line.prefix.utf8
                output += Array(text.utf8)
                output += index == rendered.count + excerpt.count - 1 ? line.ending : ending
            }
        }
        return output
    }

    /// `bytes`, a rendering of `lines` without their prefixes, with the prefixes put back: each line's before the line
    /// of the same number, and the last one's before any line a rendering added.
    static func prefixed(_ bytes: [UInt8], like lines: [LogLine]) -> [UInt8] {
        guard lines.contains(where: { !$0.prefix.isEmpty }) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + lines.reduce(0) { $0 + $1.prefix.utf8.count })
        var number = 0
        var lineStart = true
        for byte in bytes {
            if lineStart {
                output += lines[min(number, lines.count - 1)].prefix.utf8
                number += 1
                lineStart = false
            }
            output.append(byte)
            if byte == UInt8(ascii: "\n") { lineStart = true }
        }
        return output
    }

    /// `    #3 0x55d… in check_index /src/sensors.c:30:9`, one numbered line per inlined frame, as the
    /// sanitizers print with `symbolize=1`; without a file, the module and offset follow as they do there.
    /// ThreadSanitizer's frames, which give no pc, as it prints them symbolized: `#0 bump /src/race.c:4:5 (race+0x11e0)`.
    private func sanitizerLines(_ frame: CrashFrame, firstNumber: Int, report: CrashReport, indentation: String) -> [String] {
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

    /// A JSON report (an `.ips` body, the Swift backtracer's JSON): each resolved frame object rewritten in place, as Xcode writes a symbolicated one
    /// (`symbol`, `symbolLocation`, `sourceFile`, `sourceLine`; inlined frames as extra objects with
    /// `"inline":true` before it). Every other byte stays as it was.
    private func renderJSONFrames(_ report: CrashReport) -> [UInt8] {
        let bytes = LogLine.joinedBytes(report.lines)
        let frames = report.threads.flatMap(\.frames).filter { $0.byteRange != nil && !$0.symbols.isEmpty }
            .sorted { $0.byteRange!.lowerBound < $1.byteRange!.lowerBound }
        var output: [UInt8] = []
        var cursor = 0
        for frame in frames {
            guard let range = frame.byteRange, range.lowerBound >= cursor, range.upperBound <= bytes.count,
                  let original = try? JSONParser.parse(bytes, range: range), case .object(let members) = original.value else { continue }
            output += bytes[cursor..<range.lowerBound]
            let separator = report.format == .swiftBacktrace ? ": " : ":"
            let kept = members.filter { !["symbol", "symbolLocation", "sourceFile", "sourceLine", "sourceColumn", "inline",
                                          "offset", "image", "sourceLocation", "inlined", "description"].contains($0.key) }
                .map { JSONText.quote($0.key) + separator + String(decoding: bytes[$0.value.span], as: UTF8.self) }
            let objects = frame.symbols.map { symbol -> String in
                var fields = kept
                if report.format == .swiftBacktrace {
                    // As the backtracer writes its own symbolicated JSON: the mangled name in `symbol`, the readable one
                    // with its offset in `description`, the offset from the call for a return address.
                    let image = frame.image.map { report.images[$0].name }
                    if symbol.isInlined { fields.append("\"inlined\": true") }
                    if symbol.isThunk { fields.append("\"thunk\": true") } else if SwiftBacktraceLayout.isSystem(symbol, image: image) {
                        fields.append("\"system\": true")
                    }
                    fields.append("\"symbol\": " + JSONText.quote(symbol.linkageName ?? symbol.function ?? "<unknown>"))
                    let offset = symbol.isInlined ? 0 : SwiftBacktraceLayout.offset(of: frame) ?? 0
                    fields.append("\"offset\": \(offset)")
                    let name = symbol.function ?? symbol.linkageName ?? "<unknown>"
                    fields.append("\"description\": " + JSONText.quote(symbol.isInlined ? name : "\(name) + \(offset)"))
                    if let image { fields.append("\"image\": " + JSONText.quote(image)) }
                    if let file = symbol.file {
                        fields.append("\"sourceLocation\": { \"file\": \(JSONText.quote(file)), \"line\": \(symbol.line), \"column\": \(symbol.column) }")
                    }
                    return "{ " + fields.joined(separator: ", ") + " }"
                }
                fields.append("\"symbol\":" + JSONText.quote(symbol.function ?? "???"))
                if !symbol.isInlined, let offset = frame.functionOffset { fields.append("\"symbolLocation\":\(offset)") }
                if let file = symbol.file {
                    fields.append("\"sourceFile\":" + JSONText.quote(FilePath.fileName(of: file)))
                    fields.append("\"sourceLine\":\(symbol.line)")
                }
                if symbol.isInlined { fields.append("\"inline\":true") }
                return "{" + fields.joined(separator: ",") + "}"
            }
            output += Array(objects.joined(separator: ",").utf8)
            cursor = range.upperBound
        }
        output += bytes[cursor...]
        return output
    }

    /// An exception's call stack: `callStackSymbols` lines get their tail replaced as in `.crash`; an address
    /// list stays as it was and is followed by one line per resolved address, numbered, in atos's words.
    private func renderNSException(_ report: CrashReport) -> [UInt8] {
        var listFrames: [Int: [CrashFrame]] = [:]
        var symbolLines: [Int: CrashFrame] = [:]
        for frame in report.threads.flatMap(\.frames) where !frame.symbols.isEmpty {
            if case .darwin = frame.lineStyle { symbolLines[frame.lineNumber] = frame }
        }
        // An address list's resolved lines go after the line that closes it.
        for thread in report.threads {
            let listed = thread.frames.filter { symbolLines[$0.lineNumber] == nil }
            guard let last = listed.map(\.lineNumber).max() else { continue }
            listFrames[last, default: []] += listed.filter { !$0.symbols.isEmpty }
        }
        // Frames that have an address or offset and stayed unresolved, by line (coloured as such on a terminal).
        var unresolvedLines = Set<Int>()
        if colors != nil {
            for thread in report.threads {
                for frame in thread.frames where frame.symbols.isEmpty && frame.unresolvedReason != nil { unresolvedLines.insert(frame.lineNumber) }
            }
        }
        var output: [UInt8] = []
        for (number, line) in report.lines.enumerated() {
            if let frame = symbolLines[number], case .darwin(let headLength) = frame.lineStyle {
                let ending = line.ending.isEmpty ? [UInt8(ascii: "\n")] : line.ending
                let rendered = appleLines(frame, prefix: Self.head(of: line.text, length: headLength), report: report)
                for (index, text) in rendered.enumerated() {
                    output += Array((line.prefix + text).utf8) + (index == rendered.count - 1 ? line.ending : ending)
                }
                continue
            }
            line.appendWhole(to: &output)
            guard let frames = listFrames[number], !frames.isEmpty else { continue }
            if line.ending.isEmpty { output += [UInt8(ascii: "\n")] }
            for frame in frames {
                let address = "0x" + String(frame.address ?? 0, radix: 16)
                for symbol in frame.symbols {
                    var text = "\(frame.index)\t\(address) \(symbol.function ?? "???")"
                    if let file = symbol.file, symbol.line > 0 {
                        text += " (\(FilePath.fileName(of: file)):\(symbol.line))"
                    } else if !symbol.isInlined, let offset = frame.functionOffset {
                        text += " + \(offset)"
                    }
                    output += Array((line.prefix + text + "\n").utf8)
                }
            }
        }
        return output
    }

    /// systemd-coredump's line with the function named and the source position after the module: `#0  0x… scale
    /// (app + 0x1290) at crash.c:26:18`; inlined frames as extra lines with the same number, marked `(inlined)`.
    private func coredumpLines(_ frame: CrashFrame, head: String, module name: String, offset: UInt64) -> [String] {
        let module = " (\(name) + 0x\(String(offset, radix: 16)))"
        return frame.symbols.map { symbol in
            head + (symbol.function ?? "n/a") + module + Self.location(symbol, prefix: " at ") + (symbol.isInlined ? " (inlined)" : "")
        }
    }

    /// The tombstone's own line, with `(function+offset)` filled in and the source position after it;
    /// inlined frames as extra lines with the same number, marked `(inlined)`.
    private func tombstoneLines(_ frame: CrashFrame, head: String, buildID: String?) -> [String] {
        // Everything up to and including the module path stays as the log wrote it.
        let buildID = buildID.map { " (BuildId: \($0))" } ?? ""
        return frame.symbols.map { symbol in
            let name = symbol.function ?? "???"
            let location = Self.location(symbol)
            if symbol.isInlined { return "\(head) (\(name))\(location) (inlined)" }
            let offset = frame.functionOffset.map { "+\($0)" } ?? ""
            return "\(head) (\(name)\(offset))\(buildID)\(location)"
        }
    }

    /// The stackwalker's style: ` 3  module!function [file : line]` (`+ 0x…` from the function when the
    /// line is unknown); inlined frames as extra lines with the same number, marked `(inlined)`.
    private func breakpadLines(_ frame: CrashFrame, indentation: String, report: CrashReport) -> [String] {
        let module = frame.image.map { report.images[$0].name } ?? "???"
        return frame.symbols.map { symbol in
            var text = "\(indentation)\(frame.index)  \(module)!\(symbol.function ?? "???")"
            if let file = symbol.file, symbol.line > 0 {
                text += " [\(FilePath.fileName(of: file)) : \(symbol.line)]"
            } else if !symbol.isInlined, let offset = frame.functionOffset {
                text += " + 0x" + String(offset, radix: 16)
            }
            return symbol.isInlined ? text + " (inlined)" : text
        }
    }

    /// lldb's style: `frame #3: 0x… App`sample_at + 20 at sensors.c:17:44`; inlined frames as extra lines
    /// with the same number, marked `[inlined]` as lldb marks them.
    private func lldbLines(_ frame: CrashFrame, prefix: String, report: CrashReport) -> [String] {
        let module = frame.image.map { report.images[$0].name } ?? "???"
        return frame.symbols.map { symbol in
            var text = "\(prefix)\(module)`\(symbol.function ?? "???")"
            if !symbol.isInlined, let offset = frame.functionOffset { text += " + \(offset)" }
            if let file = symbol.file, symbol.line > 0 {
                text += " at \(FilePath.fileName(of: file)):\(symbol.line)"
                if symbol.column > 0 { text += ":\(symbol.column)" }
            }
            return symbol.isInlined ? text + " [inlined]" : text
        }
    }

    /// gdb's style: `#4  0x00005555555553ba in sample_at () at ./sensors.c:35`, inlined frames printed
    /// without an address as gdb prints them, under the frame's own number (frames gdb already named
    /// keep theirs, so numbers are not shifted).
    private func gdbLines(_ frame: CrashFrame) -> [String] {
        let digits = String(frame.address ?? 0, radix: 16)
        let address = "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
        return frame.symbols.map { symbol in
            let number = "#\(frame.index)"
            let padding = number.count < 4 ? String(repeating: " ", count: 4 - number.count) : " "
            let name = symbol.function ?? "??"
            var location = ""
            if let file = symbol.file, symbol.line > 0 { location = " at \(file):\(symbol.line)" }
            return symbol.isInlined ? "\(number)\(padding)\(name) ()\(location)" : "\(number)\(padding)\(address) in \(name) ()\(location)"
        }
    }

    /// symbolicatecrash's style: the frame's text up to its address, then `func (in Image) (File.m:94)`,
    /// or `func (in Image) + 12` without a line; inlined frames as extra lines with the same number.
    private func appleLines(_ frame: CrashFrame, prefix: String, report: CrashReport) -> [String] {
        let image = frame.image.map { report.images[$0].name } ?? "???"
        return frame.symbols.map { symbol in
            let name = symbol.function ?? "???"
            if let file = symbol.file, symbol.line > 0 || symbol.isInlined {
                let fileName = FilePath.fileName(of: file)
                return "\(prefix) \(name) (in \(image)) (\(fileName):\(symbol.line))"
            }
            let offset = symbol.isInlined ? "" : frame.functionOffset.map { " + \($0)" } ?? ""
            return "\(prefix) \(name) (in \(image))\(offset)"
        }
    }

    /// `./sensors(sample_at+0x4a) [0x…] at ./sensors.c:35:12`, preceded by one line per inlined frame.
    private func glibcLines(_ frame: CrashFrame, report: CrashReport) -> [String] {
        let module = frame.image.flatMap { report.images[$0].path } ?? ""
        let address = "[0x" + String(frame.address ?? 0, radix: 16) + "]"
        return frame.symbols.map { symbol in
            let name = symbol.function ?? "??"
            if symbol.isInlined { return "\(module)(\(name)) \(address)\(Self.location(symbol, prefix: " at ")) (inlined)" }
            let call = frame.functionOffset.map { "\(name)+0x\(String($0, radix: 16))" } ?? name
            return "\(module)(\(call)) \(address)\(Self.location(symbol, prefix: " at "))"
        }
    }

    /// The first `length` UTF-8 bytes of `text`: the part of a frame's line its parser recorded as kept.
    private static func head(of text: String, length: Int) -> String {
        String(decoding: text.utf8.prefix(max(0, length)), as: UTF8.self)
    }

    private static func location(_ symbol: SymbolicatedFrame, prefix: String = " ") -> String {
        guard let file = symbol.file else { return "" }
        var text = prefix + file
        if symbol.line > 0 { text += ":\(symbol.line)" }
        if symbol.column > 0 { text += ":\(symbol.column)" }
        return text
    }
}
