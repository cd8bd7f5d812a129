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
        /// `0xBASE + N` (unsymbolicated): the image's load address and the decimal offset.
        var base: UInt64?
        var offset: UInt64?
        /// `symbol + N` already in the log.
        var symbol: String?
    }

    /// `12  UIKitCore    \t   0x183442f24 -[UIView(Hierarchy) _setBackgroundColor:] + 564`, `42  Demo  0x100f4c4b4 0x100e88000 + 804020`.
    static func frame(in line: String) -> FrameLine? {
        let start = line.firstIndex { $0 != " " } ?? line.endIndex
        let digitsEnd = line[start...].firstIndex { !($0.isASCIIDigit) } ?? line.endIndex
        guard digitsEnd > start, let index = Int(line[start..<digitsEnd]),
              digitsEnd < line.endIndex, line[digitsEnd] == " " || line[digitsEnd] == "\t" else { return nil }
        // The image name may hold spaces; the address is the first `0x…` word after it.
        var cursor = digitsEnd
        var imageStart: String.Index?
        while cursor < line.endIndex {
            while cursor < line.endIndex, line[cursor] == " " || line[cursor] == "\t" { cursor = line.index(after: cursor) }
            guard cursor < line.endIndex else { return nil }
            let wordEnd = line[cursor...].firstIndex { $0 == " " || $0 == "\t" } ?? line.endIndex
            let word = line[cursor..<wordEnd]
            if imageStart != nil, let address = HexNumber.parse(word) {
                var imageText = line[imageStart!..<cursor]
                while let last = imageText.last, last == " " || last == "\t" { imageText = imageText.dropLast() }
                if imageText.hasPrefix("+ ") { imageText = imageText.dropFirst(2) }
                var frame = FrameLine(index: index, image: String(imageText), address: address, tailStart: wordEnd)
                let tail = String(line[wordEnd...]).trimmingWhitespace
                if let plus = tail.range(of: " + ") {
                    let head = tail[..<plus.lowerBound]
                    let number = tail[plus.upperBound...].prefix { $0.isASCIIDigit }
                    frame.offset = UInt64(number)
                    if let base = HexNumber.parse(head) {
                        frame.base = base
                    } else if !head.isEmpty {
                        frame.symbol = String(head)
                    }
                }
                return frame
            }
            if imageStart == nil { imageStart = cursor }
            cursor = wordEnd
        }
        return nil
    }

    /// `0x100e88000 - 0x100f8ffff Demo arm64  <b4ba…> /private/var/…/Demo` and its macOS variants
    /// (`+name`, `(version)`, dashed upper-case UUIDs).
    static func image(in line: String) -> CrashImage? {
        let text = line.trimmingWhitespace
        guard text.hasPrefix("0x"), let dash = text.range(of: " - ") ?? text.range(of: "-"),
              let start = HexNumber.parse(String(text[..<dash.lowerBound]).trimmingWhitespace) else { return nil }
        let rest = String(text[dash.upperBound...]).trimmingWhitespace
        let endText = rest.prefix { $0 != " " }
        guard let end = HexNumber.parse(endText), let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") else { return nil }
        var description = String(rest[rest.index(rest.startIndex, offsetBy: endText.count)..<open]).trimmingWhitespace
        if description.hasPrefix("+") { description = String(description.dropFirst()).trimmingWhitespace }
        var architecture: String?
        // Drop `(version)` and take the architecture word, when there is one.
        if let paren = description.firstIndex(of: "(") {
            let inside = description[description.index(after: paren)...].prefix { $0 != ")" }
            if ["arm64", "arm64e", "x86_64", "x86_64h", "i386", "armv7", "armv7s", "armv7k", "arm64_32"].contains(String(inside)) {
                architecture = String(inside)
            }
            description = String(description[..<paren]).trimmingWhitespace
        }
        var words = description.split(separator: " ").map(String.init)
        if let last = words.last, ["arm64", "arm64e", "x86_64", "x86_64h", "i386", "armv7", "armv7s", "armv7k", "arm64_32"].contains(last) {
            architecture = last
            words.removeLast()
        }
        let uuid = String(rest[rest.index(after: open)..<close])
        let path = String(rest[rest.index(after: close)...]).trimmingWhitespace
        return CrashImage(name: words.joined(separator: " "), path: path.isEmpty ? nil : path, identifier: uuid,
                          architecture: architecture, loadAddress: start, endAddress: end)
    }

    static func recognizes(_ lines: [LogLine]) -> Bool {
        var threads = false, images = false
        for line in lines {
            let text = line.text
            if text.hasPrefix("Incident Identifier:") || text.hasPrefix("Exception Type:") { return true }
            if text.hasPrefix("Binary Images:") { images = true }
            if text.hasPrefix("Thread "), text.hasSuffix(":") || text.includes("Crashed") { threads = true }
        }
        return threads && images
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .appleCrash, exception: nil, threads: [], images: [], lines: lines)
        var inImages = false
        for line in lines {
            if line.text.hasPrefix("Binary Images:") { inImages = true; continue }
            guard inImages else { continue }
            if let image = image(in: line.text) { report.images.append(image) } else if !line.text.trimmingWhitespace.isEmpty { inImages = false }
        }
        var exceptionType: String?
        var messages: [String] = []
        var threadNames: [Int: String] = [:]
        var current: CrashThread?
        var inApplicationInformation = false
        func close() {
            if let thread = current, !thread.frames.isEmpty { report.threads.append(thread) }
            current = nil
        }
        for (number, line) in lines.enumerated() {
            let text = line.text
            if text.hasPrefix("Binary Images:") { close(); break }
            if text.hasPrefix("Exception Type:") { exceptionType = String(text.dropFirst("Exception Type:".count)).trimmingWhitespace }
            if text.hasPrefix("Termination Reason:") || text.hasPrefix("Exception Codes:") {
                messages.append(text.trimmingWhitespace)
            }
            if text.hasPrefix("Application Specific Information:") { inApplicationInformation = true; continue }
            if inApplicationInformation {
                if text.trimmingWhitespace.isEmpty { inApplicationInformation = false } else { messages.append(text.trimmingWhitespace) }
                continue
            }
            if let header = threadHeader(text) {
                switch header {
                case .name(let index, let name):
                    threadNames[index] = name
                case .stack(let index, let name, let crashed):
                    close()
                    current = CrashThread(index: index, name: name ?? threadNames[index], crashed: crashed, frames: [])
                case .exceptionBacktrace(let title):
                    close()
                    current = CrashThread(index: report.threads.count, name: title, crashed: false, frames: [])
                }
                continue
            }
            guard current != nil else { continue }
            guard let parsed = frame(in: text) else {
                if text.trimmingWhitespace.isEmpty || text.hasPrefix("Thread ") { close() }
                continue
            }
            let image = report.images.firstIndex { $0.name == parsed.image }
                ?? report.images.firstIndex { image in
                    guard let start = image.loadAddress, let end = image.endAddress else { return false }
                    return parsed.address >= start && parsed.address <= end
                }
            // Apple's rule: frame 0 is where the thread was; every other frame is a return address.
            let kind: AddressKind = parsed.index == 0 ? .programCounter : .returnAddress
            var frame = CrashFrame(index: parsed.index, address: parsed.address, addressKind: kind, image: image,
                                   imageOffset: nil, symbolInLog: parsed.symbol, symbolOffsetInLog: parsed.symbol == nil ? nil : parsed.offset,
                                   lineNumber: number)
            if let image, let start = report.images[image].loadAddress, parsed.address >= start {
                frame.imageOffset = parsed.address - start
            } else if parsed.base != nil, let offset = parsed.offset {
                // `0xBASE + N` of an image the list does not hold: N is still the offset into it.
                frame.imageOffset = offset
            }
            current?.frames.append(frame)
        }
        close()
        if exceptionType != nil || !messages.isEmpty {
            report.exception = CrashReport.Exception(type: exceptionType, message: messages.isEmpty ? nil : messages.joined(separator: "\n"))
        }
        if !lines.contains(where: { $0.text.hasPrefix("Binary Images:") }) {
            report.warnings.append("the report has no Binary Images section; frames resolve only when their image can be found by name")
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
        if text.hasPrefix("Last Exception Backtrace:") || (text.hasPrefix("Application Specific Backtrace") && text.hasSuffix(":")) {
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
