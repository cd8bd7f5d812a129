import LogFraming
import PostmortemCore

/// The Swift runtime backtracer's symbolicated layout, for printing its reports back as it prints them: every frame of
/// a thread numbered in turn, inlined ones included; a right-aligned number column (at least three wide); a tag column
/// (`[ra]`, `[async]`, `[inlined]`, `[thunk]`, `[system]`) as wide as the thread's widest; `...` for an elision; a
/// return address's offset counted from the call (the address less one), as the runtime counts it.
struct SwiftBacktraceLayout {
    /// One printed line of a thread.
    private enum Row {
        case frame(number: Int, tags: [String], text: String)
        case elision
    }

    /// The lines of every thread that has a resolved frame, by the log line they replace. Threads with none keep their
    /// lines as they are.
    static func lines(of report: CrashReport) -> [Int: [String]] {
        var framesByLine: [Int: CrashFrame] = [:]
        for thread in report.threads { for frame in thread.frames { framesByLine[frame.lineNumber] = frame } }
        var result: [Int: [String]] = [:]
        for thread in report.threads
        where thread.frames.contains(where: { !$0.symbols.isEmpty && !$0.isSymbolicatedInLog }) {
            // Loops, not key paths: a key path applied per frame cost more than the rest of laying out the frame.
            var first = Int.max, last = Int.min
            for frame in thread.frames {
                first = min(first, frame.lineNumber)
                last = max(last, frame.lineNumber)
            }
            guard first <= last else { continue }
            var rows: [(line: Int, rows: [Row])] = []
            var added = 0
            for number in first...min(last + 1, report.lines.count - 1) {
                let text = report.lines[number].text
                if isElision(text) { rows.append((number, [.elision])); continue }
                guard var parsed = SwiftBacktraceParser.frame(in: text) else { continue }
                // A report symbolicated already: its inlined frames give way to the chain worked out here.
                if parsed.tags.contains("inlined") { rows.append((number, [])); continue }
                let frame = framesByLine[number]
                if frame.map({ !$0.symbols.isEmpty }) == true {
                    // What the address says of itself stays; what the symbol says is worked out again.
                    parsed.tags.removeAll { $0 == "thunk" || $0 == "system" }
                }
                let address = ELFCoreReportWriter.hex16(parsed.address)
                guard let frame, !frame.symbols.isEmpty else {
                    rows.append(
                        (
                            number,
                            [
                                .frame(
                                    number: parsed.index + added, tags: parsed.tags.map { "[\($0)]" },
                                    text: parsed.rest.isEmpty ? address : address + " " + parsed.rest)
                            ]
                        ))
                    continue
                }
                let image = frame.image.map { report.images[$0].name }
                let symbolRows = frame.symbols.enumerated().map { position, symbol -> Row in
                    var tags = symbol.isInlined ? ["[inlined]"] : parsed.tags.map { "[\($0)]" }
                    if symbol.isThunk {
                        tags.append("[thunk]")
                    } else if isSystem(symbol, image: image) {
                        tags.append("[system]")
                    }
                    // The runtime gives an async resume point, like an inlined frame, no offset.
                    let offset =
                        symbol.isInlined || parsed.tags.contains("async")
                        ? "" : offset(of: frame).map { " + \($0)" } ?? ""
                    let place = image.map { " in \($0)" } ?? ""
                    return .frame(
                        number: parsed.index + added + position, tags: tags,
                        text: "\(address) \(symbol.function ?? "<unknown>")\(offset)\(place)\(location(symbol))")
                }
                added += frame.symbols.count - 1
                rows.append((number, symbolRows))
            }
            var numberWidth = 3, tagWidth = 0
            for (_, lineRows) in rows {
                for case .frame(let number, let tags, _) in lineRows {
                    numberWidth = max(numberWidth, String(number).utf8.count)
                    tagWidth = max(tagWidth, tags.joined(separator: " ").count)
                }
            }
            for (line, lineRows) in rows {
                result[line] = lineRows.map { row in
                    switch row {
                    case .elision: return "..."
                    case .frame(let number, let tags, let text):
                        let digits = String(number), tagText = tags.joined(separator: " ")
                        return String(repeating: " ", count: numberWidth - digits.utf8.count) + digits + " "
                            + tagText + String(repeating: " ", count: tagWidth - tagText.count) + " " + text
                    }
                }
            }
        }
        return result
    }

    /// `47      ...` (or `...` alone): frames the backtracer left out.
    static func isElision(_ text: String) -> Bool {
        // Over the bytes: asked of every line of a thread, where comparing characters cost more than laying it out.
        let bytes = text.utf8.span
        var start = 0
        while start < bytes.count, bytes[start] == UInt8(ascii: " ") { start += 1 }
        if isEllipsis(bytes, start..<bytes.count) { return true }
        var digitsEnd = start
        while digitsEnd < bytes.count, bytes[digitsEnd] >= UInt8(ascii: "0"), bytes[digitsEnd] <= UInt8(ascii: "9") {
            digitsEnd += 1
        }
        return digitsEnd > start && isEllipsis(bytes, LineBytes.trimmed(digitsEnd..<bytes.count, in: bytes))
    }

    /// Whether `range` of `bytes` is `...`.
    private static func isEllipsis(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Bool {
        range.count == 3 && bytes[range.lowerBound] == UInt8(ascii: ".")
            && bytes[range.lowerBound + 1] == UInt8(ascii: ".")
            && bytes[range.lowerBound + 2] == UInt8(ascii: ".")
    }

    /// The offset into the function as the runtime prints it: from the call instruction for a return address.
    static func offset(of frame: CrashFrame) -> UInt64? {
        guard let offset = frame.functionOffset else { return nil }
        return frame.addressKind == .returnAddress && offset > 0 ? offset - 1 : offset
    }

    /// What the runtime calls a system function: the program's entry points it adds, and code with no source line of
    /// its own (compiler-generated), thunks aside.
    static func isSystem(_ symbol: SymbolicatedFrame, image: String?) -> Bool {
        let name = symbol.linkageName ?? ""
        if name.hasSuffix("5$mainyyFZ") || name.hasSuffix("5$mainyyYaFZTQ0_") || name.hasSuffix("async_MainTQ0_") {
            return true
        }
        if name.hasSuffix("_ZL23completeTaskWithClosurePN5swift12AsyncContextEPNS_10SwiftErrorE"),
            image?.hasPrefix("libswift_Concurrency.") == true
        {
            return true
        }
        guard let file = symbol.file, !symbol.isThunk else { return false }
        // A file name alone, with no line, is a symbol table's (`STT_FILE`), not a source location: no sign of anything.
        return file.hasSuffix("<compiler-generated>") || (symbol.line == 0 && symbol.column == 0 && file.contains("/"))
    }

    /// The file of `symbol`'s source location as the runtime writes it, `nil` when it writes none (a file alone, with
    /// no line, is a symbol table's `STT_FILE`). The runtime joins a line table's directory and name with a slash as
    /// they are: compiler-generated code (directory `/`) is at `//<compiler-generated>`, where llvm-symbolizer and the
    /// rest of Postmortem write `/<compiler-generated>`.
    static func sourceFile(of symbol: SymbolicatedFrame) -> String? {
        guard let file = symbol.file, symbol.line > 0 || file.hasSuffix("<compiler-generated>") else { return nil }
        return file == "/<compiler-generated>" ? "/" + file : file
    }

    /// ` at FILE:LINE:COLUMN`, as the runtime writes a source location; a compiler-generated one has line 0 and is
    /// written, a file alone (a symbol table's `STT_FILE`, `queue.c`) is no location and is not.
    private static func location(_ symbol: SymbolicatedFrame) -> String {
        guard let file = sourceFile(of: symbol) else { return "" }
        var text = " at " + file
        if symbol.line > 0 { text += ":\(symbol.line)" }
        if symbol.column > 0 { text += ":\(symbol.column)" }
        return text
    }
}
