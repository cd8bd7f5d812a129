import LogFraming
import PostmortemCore

/// Reads the `elf-core` layout ``ELFCoreReportWriter`` writes.
enum ELFCoreParser {
    static let headerStart = ELFCoreReportWriter.headerStart
    static let imagesHeading = "Images:"
    static let stopPrefix = "    the walk stopped: "

    static func parse(_ lines: [LogLine], format: CrashLogFormat) -> CrashReport {
        var exception: CrashReport.Exception?
        var threads: [CrashThread] = []
        var images: [CrashImage] = []
        var inImages = false
        for (number, line) in lines.enumerated() {
            let text = line.text
            if text == imagesHeading {
                inImages = true
                continue
            }
            if inImages {
                if let image = image(text) { images.append(image) } else if !text.isEmpty { inImages = false }
                continue
            }
            if text.hasPrefix("Signal: ") {
                let words = text.dropFirst("Signal: ".count)
                let type = String(words.prefix { $0 != " " })
                var rest = words.dropFirst(type.count).drop { $0 == " " }
                if rest.hasPrefix("("), rest.hasSuffix(")") { rest = rest.dropFirst().dropLast() }
                exception = CrashReport.Exception(type: type, message: rest.isEmpty ? nil : String(rest))
            } else if text.hasPrefix(ELFCoreReportWriter.crashReasonStart) {
                // `Crash reason: SIGSEGV / SEGV_MAPERR`, `Crash reason: EXCEPTION_ACCESS_VIOLATION_READ`.
                let parts = text.dropFirst(ELFCoreReportWriter.crashReasonStart.count).split(
                    separator: " / ", maxSplits: 1)
                exception = CrashReport.Exception(
                    type: parts.first.map(String.init), message: parts.count > 1 ? String(parts[1]) : nil)
            } else if text.hasPrefix("Thread "), text.hasSuffix(":"),
                let id = Int(text.dropFirst("Thread ".count).prefix { $0.isNumber })
            {
                // `Thread 7461:`, `Thread 7461 crashed:`, `Thread 7463 "worker":`.
                var name = "Thread \(id)"
                if let open = text.firstIndex(of: "\""), let close = text.lastIndex(of: "\""), open < close {
                    name = String(text[text.index(after: open)..<close])
                }
                threads.append(CrashThread(index: id, name: name, crashed: text.hasSuffix(" crashed:"), frames: []))
            } else if text.hasPrefix(stopPrefix), !threads.isEmpty {
                threads[threads.count - 1].stopReason = String(text.dropFirst(stopPrefix.count))
            } else if text.hasPrefix("#"), !threads.isEmpty, let frame = frame(text, lineNumber: number) {
                // A symbolicated report read back: an inlined frame's line repeats its frame's number.
                if threads[threads.count - 1].frames.last?.index == frame.index { continue }
                threads[threads.count - 1].frames.append(frame)
            }
        }
        // Frames name their image by name; the table gives each its index.
        for threadIndex in threads.indices {
            for frameIndex in threads[threadIndex].frames.indices {
                guard case .unwound(_, let module, _) = threads[threadIndex].frames[frameIndex].lineStyle else {
                    continue
                }
                threads[threadIndex].frames[frameIndex].image = images.firstIndex { $0.name == module }
            }
        }
        return CrashReport(format: format, exception: exception, threads: threads, images: images, lines: lines)
    }

    /// `#3  0x00007f843f91d24a libc.so.6 + 0x2724a [cfi]`, or the same symbolicated
    /// (`… __libc_start_call_main + 0x7a (libc.so.6 + 0x2724a) at …:58:16 [cfi]`).
    static func frame(_ text: String, lineNumber: Int) -> CrashFrame? {
        let utf8 = Array(text.utf8)
        guard let number = Int(text.dropFirst().prefix { $0.isNumber }) else { return nil }
        guard let addressStart = text.range(of: " 0x")?.upperBound else { return nil }
        let hex = text[addressStart...].prefix { $0.isHexDigit }
        guard let address = UInt64(hex, radix: 16) else { return nil }
        let headLength = FrameLineStyle.length(of: text, upTo: hex.endIndex) + 1
        guard headLength <= utf8.count else { return nil }
        let rest = String(decoding: utf8[headLength...], as: UTF8.self)
        var trust: FrameTrust?
        if rest.hasSuffix("]"), let open = rest.lastIndex(of: "[") {
            trust = FrameTrust(rawValue: String(rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]))
        }
        // The module and offset: the whole rest before the mark when unresolved, the parenthesised pair when resolved.
        var place = rest
        var isSymbolicated = false
        if let open = rest.range(of: " ("), let close = rest[open.upperBound...].firstIndex(of: ")"),
            rest[open.upperBound..<close].contains(" + 0x")
        {
            place = String(rest[open.upperBound..<close])
            isSymbolicated = true
        } else if trust != nil, let mark = rest.lastIndex(of: "[") {
            place = String(rest[..<mark].dropLast())
        }
        let parts = place.split(separator: " + 0x", omittingEmptySubsequences: false)
        let module = parts.count == 2 ? String(parts[0]) : place
        let offset = parts.count == 2 ? UInt64(parts[1], radix: 16) : nil
        let isReturnAddress = number > 0 && trust != .context
        var frame = CrashFrame(
            index: number, address: address, addressKind: isReturnAddress ? .returnAddress : .programCounter,
            image: nil, imageOffset: offset, lineNumber: lineNumber,
            lineStyle: .unwound(headLength: headLength, module: module, offset: offset ?? 0))
        frame.trust = trust
        if isSymbolicated {
            frame.isSymbolicatedInLog = true
            frame.symbolInLog = String(rest.prefix { $0 != " " })
        }
        return frame
    }

    /// `0x000055eca382e000-0x000055eca3833000 mt 1b39ccb3… /tmp/cfi/mt`.
    static func image(_ text: String) -> CrashImage? {
        let fields = text.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard fields.count == 4 else { return nil }
        let bounds = fields[0].split(separator: "-")
        guard bounds.count == 2, bounds[0].hasPrefix("0x"), bounds[1].hasPrefix("0x"),
            let start = UInt64(bounds[0].dropFirst(2), radix: 16), let end = UInt64(bounds[1].dropFirst(2), radix: 16)
        else { return nil }
        return CrashImage(
            name: String(fields[1]), path: fields[3] == "-" ? nil : String(fields[3]),
            identifier: fields[2] == "-" ? nil : String(fields[2]), loadAddress: start, endAddress: end)
    }
}
