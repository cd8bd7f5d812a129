import LogFraming
import PostmortemCore

/// Parses Apple's text crash reports (`.crash`): the header, `Thread N …:` stacks, `Last Exception Backtrace:`
/// and `Application Specific Backtrace N:` stacks, and `Binary Images:` with load addresses and UUIDs.
/// Lines before the report (console noise, an `.ips` header line) and after it are kept as they are.
struct AppleCrashParser {
    struct FrameLine: Equatable {
        var index: Int
        var image: String
        var address: UInt64
        /// Where the text after the address starts (the part symbolication replaces).
        var tailStart: String.Index

        /// How the line `text` it was read from is written.
        func style(in text: String) -> FrameLineStyle {
            .darwin(headLength: FrameLineStyle.length(of: text, upTo: tailStart))
        }
        /// `0xBASE + N` (unsymbolicated): the image's load address and the decimal offset.
        var base: UInt64?
        var offset: UInt64?
        /// `symbol + N` already in the log.
        var symbol: String?
    }

    /// `12  UIKitCore    \t   0x183442f24 -[UIView(Hierarchy) _setBackgroundColor:] + 564`, `42  Demo  0x100f4c4b4 0x100e88000 + 804020`.
    static func frame(in line: String) -> FrameLine? {
        // By offset over the line's bytes: a report has hundreds of frames (and other formats' readers ask this of
        // lines that are no frame), and steps through the string's views cost more than the reading.
        let bytes = line.utf8.span
        var cursor = 0
        while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
        guard let (index, digits) = LineBytes.decimal(in: bytes, at: &cursor), digits > 0, cursor < bytes.count,
            bytes[cursor].isBlank
        else { return nil }
        // The image name may hold spaces; the address is the first `0x…` word after it.
        var imageStart: Int?
        var imageEnd = cursor
        while cursor < bytes.count {
            while cursor < bytes.count, bytes[cursor].isBlank { cursor += 1 }
            guard cursor < bytes.count else { return nil }
            var wordEnd = cursor
            while wordEnd < bytes.count, !bytes[wordEnd].isBlank { wordEnd += 1 }
            if var start = imageStart, let address = HexNumber.parse(bytes, cursor..<wordEnd) {
                if imageEnd - start >= 2, bytes[start] == UInt8(ascii: "+"), bytes[start + 1] == UInt8(ascii: " ") {
                    start += 2
                }
                let utf8 = line.utf8
                var frame = FrameLine(
                    index: index, image: LineBytes.text(start..<imageEnd, of: line), address: address,
                    tailStart: utf8.index(utf8.startIndex, offsetBy: wordEnd))
                Self.readTail(wordEnd..<bytes.count, of: line, into: &frame)
                return frame
            }
            if imageStart == nil { imageStart = cursor }
            imageEnd = wordEnd
            cursor = wordEnd
        }
        return nil
    }

    /// The text after the address (`range` of `line`): `0xBASE + N` or `symbol + N` (anything after N is ignored).
    private static func readTail(_ range: Range<Int>, of line: String, into frame: inout FrameLine) {
        let bytes = line.utf8.span
        let text = LineBytes.trimmed(range, in: bytes)
        guard let found = ByteSearch.firstOffset(of: " + ".utf8.span, in: bytes.extracting(text)) else { return }
        let head = text.lowerBound..<text.lowerBound + found
        var position = head.upperBound + 3, offset: UInt64 = 0, digits = 0, overflowed = false
        while position < text.upperBound, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            let (times10, overflow1) = offset.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[position] - UInt8(ascii: "0")))
            overflowed = overflowed || overflow1 || overflow2
            offset = sum
            digits += 1
            position += 1
        }
        frame.offset = digits > 0 && !overflowed ? offset : nil
        if let base = HexNumber.parse(bytes, head) {
            frame.base = base
        } else if !head.isEmpty {
            frame.symbol = LineBytes.text(head, of: line)
        }
    }

    /// `com.apple.CoreFoundation`: reverse-DNS, at least three dot-separated parts, no blanks.
    static func isBundleIdentifier(_ text: String) -> Bool {
        // Over the bytes first (`.` and ` ` are never part of another character's): most image names have no dot.
        let bytes = text.utf8.span
        var dots = 0, previousDot = -1, firstDot = -1, asciiFirstPart = true
        for offset in 0..<bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: " ") { return false }
            guard byte == UInt8(ascii: ".") else {
                if dots == 0, byte >= 0x80 { asciiFirstPart = false }
                continue
            }
            if offset == previousDot + 1 { return false }
            if dots == 0 { firstDot = offset }
            dots += 1
            previousDot = offset
        }
        guard dots >= 2, previousDot < bytes.count - 1 else { return false }
        // The first part: lower-case letters (Unicode's, where it is not ASCII).
        if asciiFirstPart {
            for offset in 0..<firstDot where !(bytes[offset] >= UInt8(ascii: "a") && bytes[offset] <= UInt8(ascii: "z"))
            {
                return false
            }
            return true
        }
        let first = text.prefix { $0 != "." }
        return first.allSatisfy { $0.isLetter } && first.lowercased() == first
    }

    static func recognizes(_ lines: [LogLine]) -> Bool {
        var threads = false, images = false
        for number in lines.indices {
            // A line that starts with none of the four letters is none of these (most lines of other formats' logs).
            let first = lines[number].firstByte
            guard
                first == UInt8(ascii: "I") || first == UInt8(ascii: "E") || first == UInt8(ascii: "B")
                    || first == UInt8(ascii: "T")
            else { continue }
            let text = lines[number].text
            if text.hasPrefix("Incident Identifier:") || text.hasPrefix("Exception Type:") { return true }
            if text.hasPrefix("Binary Images:") { images = true }
            if text.hasPrefix("Thread "), text.hasSuffix(":") || text.includes("Crashed") { threads = true }
        }
        return threads && images
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .appleCrash, exception: nil, threads: [], images: [], lines: lines)
        var inImages = false, hasImages = false
        for line in lines {
            if line.firstByte == UInt8(ascii: "B"), line.textStarts(with: "Binary Images:") {
                (inImages, hasImages) = (true, true)
                continue
            }
            guard inImages else { continue }
            if let image = image(in: line.text) {
                report.images.append(image)
            } else if !line.text.trimmingWhitespace.isEmpty {
                inImages = false
            }
        }
        var imageNamed: [String: Int] = [:]
        imageNamed.reserveCapacity(report.images.count)
        for (index, image) in report.images.enumerated() where imageNamed[image.name] == nil {
            imageNamed[image.name] = index
        }
        var exceptionType: String?
        var messages: [String] = []
        var threadNames: [Int: String] = [:]
        var current: CrashThread?
        // Whether `current` holds a thread, asked at every frame line without copying the thread out of its box.
        var inThread = false
        var inApplicationInformation = false
        func close() {
            if let thread = current, !thread.frames.isEmpty { report.threads.append(thread) }
            current = nil
            inThread = false
        }
        // Reads `text`, line `number`, as a frame of the current thread; a line that is none ends the thread when it is
        // blank or another thread's header.
        func appendFrame(_ text: String, _ number: Int) {
            guard let parsed = frame(in: text) else {
                if text.trimmingWhitespace.isEmpty || text.hasPrefix("Thread ") { close() }
                return
            }
            let image =
                imageNamed[parsed.image]
                ?? report.images.firstIndex { image in
                    guard let start = image.loadAddress, let end = image.endAddress else { return false }
                    return parsed.address >= start && parsed.address <= end
                }
            // Apple's rule: frame 0 is where the thread was; every other frame is a return address.
            let kind: AddressKind = parsed.index == 0 ? .programCounter : .returnAddress
            var frame = CrashFrame(
                index: parsed.index, address: parsed.address, addressKind: kind, image: image,
                imageOffset: nil, symbolInLog: parsed.symbol,
                symbolOffsetInLog: parsed.symbol == nil ? nil : parsed.offset,
                lineNumber: number, lineStyle: parsed.style(in: text))
            if let image, let start = report.images[image].loadAddress, parsed.address >= start {
                frame.imageOffset = parsed.address - start
            } else if parsed.base != nil, let offset = parsed.offset {
                // `0xBASE + N` of an image the list does not hold: N is still the offset into it.
                frame.imageOffset = offset
            }
            current?.frames.append(frame)
        }
        for (number, line) in lines.enumerated() {
            // Every header and section title starts with a capital letter; a frame line with its number: most lines
            // of a report are frames, which skip the dozen prefix tests below.
            let isNumbered = line.firstByte >= UInt8(ascii: "0") && line.firstByte <= UInt8(ascii: "9")
            if isNumbered, !inApplicationInformation {
                if inThread { appendFrame(line.text, number) }
                continue
            }
            let text = line.text
            if text.hasPrefix("Binary Images:") { close(); break }
            if text.hasPrefix("Exception Type:") {
                exceptionType = String(text.dropFirst("Exception Type:".count)).trimmingWhitespace
            }
            if text.hasPrefix("Termination Reason:") || text.hasPrefix("Exception Codes:") {
                messages.append(text.trimmingWhitespace)
            }
            if text.hasPrefix("Application Specific Information:") { inApplicationInformation = true; continue }
            if inApplicationInformation {
                if text.trimmingWhitespace.isEmpty {
                    inApplicationInformation = false
                } else {
                    messages.append(text.trimmingWhitespace)
                }
                continue
            }
            if let header = threadHeader(text) {
                switch header {
                case .name(let index, let name):
                    threadNames[index] = name
                case .stack(let index, let name, let crashed):
                    close()
                    current = CrashThread(index: index, name: name ?? threadNames[index], crashed: crashed, frames: [])
                    inThread = true
                case .exceptionBacktrace(let title):
                    close()
                    current = CrashThread(index: report.threads.count, name: title, crashed: false, frames: [])
                    inThread = true
                }
                continue
            }
            guard inThread else { continue }
            appendFrame(text, number)
        }
        close()
        if exceptionType != nil || !messages.isEmpty {
            report.exception = CrashReport.Exception(
                type: exceptionType, message: messages.isEmpty ? nil : messages.joined(separator: "\n"))
        }
        if !hasImages {
            report.warnings.append(
                "the report has no Binary Images section; frames resolve only when their image can be found by name")
        }
        return report
    }

    private enum ThreadHeader {
        case name(Int, String)
        case stack(Int, String?, crashed: Bool)
        case exceptionBacktrace(String)
    }

    /// `Thread 0 name:  Dispatch queue: …`, `Thread 0 Crashed:`, `Thread 0 Crashed:: Dispatch queue: …`,
    /// `Thread 1:: com.apple.uikit.eventfetch-thread`, `Last Exception Backtrace:`, `Application Specific Backtrace 1:`.
    private static func threadHeader(_ text: String) -> ThreadHeader? {
        if text.hasPrefix("Last Exception Backtrace:")
            || (text.hasPrefix("Application Specific Backtrace") && text.hasSuffix(":"))
        {
            return .exceptionBacktrace(String(text.dropLast()))
        }
        guard text.hasPrefix("Thread ") else { return nil }
        let rest = text.dropFirst("Thread ".count)
        let digits = rest.prefix { $0.isASCIIDigit }
        guard let index = Int(digits) else { return nil }
        let after = String(rest.dropFirst(digits.count))
        if after.hasPrefix(" name:") { return .name(index, String(after.dropFirst(" name:".count)).trimmingWhitespace) }
        if after.includes("Thread State") || after.includes("crashed with") { return nil }
        let crashed = after.hasPrefix(" Crashed")
        let body = crashed ? String(after.dropFirst(" Crashed".count)) : after
        if body == ":" { return .stack(index, nil, crashed: crashed) }
        if body.hasPrefix("::") { return .stack(index, String(body.dropFirst(2)).trimmingWhitespace, crashed: crashed) }
        if body.hasPrefix(": ") { return .stack(index, String(body.dropFirst(2)).trimmingWhitespace, crashed: crashed) }
        return nil
    }
}
