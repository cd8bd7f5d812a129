import LogFraming
import PostmortemCore

/// Parses the Swift runtime backtracer's text output (Swift 5.9+): `Thread N "name" crashed:` blocks of
/// `N [ra] 0x… symbol + off in image at file:line:col` frames (or bare addresses with `symbolicate=off`),
/// `...` elisions, and the `Images:` list that gives each image's load address and build ID.
struct SwiftBacktraceParser {
    struct FrameLine: Equatable {
        var index: Int
        var tags: [String]
        var address: UInt64
        /// What follows the address: `symbol + off in image at file:line:col`, or nothing.
        var rest: String
    }

    static func frame(in line: String) -> FrameLine? {
        var text = Substring(line).droppingLeadingSpaces
        guard let (index, digitsEnd) = text.leadingDecimal(), text.utf8[digitsEnd...].first == UInt8(ascii: " ") else {
            return nil
        }
        text = Substring(text.utf8[digitsEnd...]).droppingLeadingSpaces
        var tags: [String] = []
        while text.utf8.first == UInt8(ascii: "["), let close = text.utf8.firstIndex(of: UInt8(ascii: "]")) {
            tags.append(String(Substring(text.utf8[text.utf8.index(after: text.utf8.startIndex)..<close])))
            text = Substring(text.utf8[text.utf8.index(after: close)...]).droppingLeadingSpaces
        }
        let addressEnd = text.utf8.firstIndex(of: UInt8(ascii: " ")) ?? text.utf8.endIndex
        guard let address = HexNumber.parse(utf8: text.utf8[..<addressEnd]) else { return nil }
        return FrameLine(
            index: index, tags: tags, address: address, rest: String(Substring(text.utf8[addressEnd...]).trimmingBlanks)
        )
    }

    /// A frame of the backtracer's friendly style (`preset=friendly`, and the interactive one): `0 level(n:) + 308 in
    /// crashAsync at /path/crashAsync.swift:6:17`, or without `+ N`; no address.
    static func friendlyFrame(in text: String) -> (index: Int, function: String, image: String)? {
        guard let (index, digitsEnd) = Substring(text).leadingDecimal(),
            text.utf8[digitsEnd...].first == UInt8(ascii: " ")
        else { return nil }
        var rest = Substring(text.utf8[digitsEnd...]).droppingLeadingSpaces
        while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            rest = Substring(rest[rest.index(after: close)...]).droppingLeadingSpaces
        }
        guard !rest.hasPrefix("0x"), let at = rest.lastRange(of: " at "),
            let inImage = rest[..<at.lowerBound].lastRange(of: " in ")
        else { return nil }
        let place = rest[at.upperBound...]
        guard let colon = place.lastIndex(of: ":"), place[place.index(after: colon)...].allSatisfy(\.isASCIIDigit)
        else { return nil }
        var function = rest[..<inImage.lowerBound]
        if let plus = function.lastRange(of: " + "), function[plus.upperBound...].allSatisfy(\.isASCIIDigit) {
            function = function[..<plus.lowerBound]
        }
        let image = rest[inImage.upperBound..<at.lowerBound]
        guard !function.isEmpty, !image.isEmpty, !image.contains(" ") else { return nil }
        return (index, String(function), String(image))
    }

    /// `0x…–0x… BUILDID NAME PATH` (an en dash between the addresses; end exclusive).
    static func image(in line: String) -> CrashImage? {
        // Cheap test first (this runs on every line): an image line starts with its `0x…` base address.
        guard line.utf8.first(where: { $0 != UInt8(ascii: " ") }) == UInt8(ascii: "0") else { return nil }
        let fields = line.spaceSeparatedFields
        // `0xBASE–0xEND BUILDID name path`, or `<no build ID>` in place of the build ID; the crash report writes an
        // en dash between the addresses, the runtime's image map a hyphen.
        // Over bytes: a character-wise search for the dash walks graphemes, the slowest part of a small report.
        let range = fields[0]
        guard let dash = range.firstByteRange(of: "\u{2013}") ?? range.firstByteRange(of: "-"),
            let start = HexNumber.parse(range[..<dash.lowerBound]), let end = HexNumber.parse(range[dash.upperBound...])
        else { return nil }
        let hasNoBuildID = fields.count >= 4 && fields[1] == "<no" && fields[2] == "build" && fields[3] == "ID>"
        let nameIndex = hasNoBuildID ? 4 : 2
        guard fields.count > nameIndex else { return nil }
        let identifier = hasNoBuildID ? nil : String(fields[1])
        let path = fields.count > nameIndex + 1 ? fields[(nameIndex + 1)...].joined(separator: " ") : nil
        return CrashImage(
            name: String(fields[nameIndex]), path: path, identifier: identifier, identifierKind: .fromText,
            loadAddress: start, endAddress: end)
    }

    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains {
            $0.textContains("*** Program crashed: ") || $0.textContains("Program crashed: ") && $0.text.hasPrefix("💣")
        }
            || SwiftBacktraceJSONParser.reportLine(in: lines) != nil
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .swiftBacktrace, exception: nil, threads: [], images: [], lines: lines)
        var fatalMessage: String?
        var crashReason: String?
        var inImages = false
        // Images come last: collect them first, so frames can be placed in them.
        // Lines are looked at trimmed in place (a trimmed copy of every indented line was most of a small report's
        // reading); a string is made of the few that are read further.
        for line in lines where inImages || line.textContains("Images") {
            let text = Substring(line.text).trimmingBlanks
            if text.startsWithBytes("Images") { inImages = true; continue }
            if inImages, let image = image(in: String(text)) { report.images.append(image) }
        }
        var thread: CrashThread?
        func close() {
            if let finished = thread { report.threads.append(finished) }
            thread = nil
        }
        inImages = false
        for (number, line) in lines.enumerated() {
            let whole = line.text
            let text = Substring(whole).trimmingBlanks
            if text.startsWithBytes("Images") || text.startsWithBytes("Registers:") { close(); inImages = true }
            if inImages { continue }
            if let range = text.range(of: "Fatal error: ") {
                fatalMessage = fatalMessage ?? String(text[range.upperBound...])
            }
            if let range = text.range(of: "Program crashed: ") {
                var reason = String(text[range.upperBound...])
                if reason.hasSuffix(" ***") { reason = String(reason.dropLast(4)) }
                if let at = reason.lastRange(of: " at 0x") { reason = String(reason[..<at.lowerBound]) }
                crashReason = reason
            }
            if text.startsWithBytes("Thread "), text.endsWithByte(UInt8(ascii: ":")) {
                close()
                let header = text.dropFirst("Thread ".count).dropLast()
                let index = Int(header.prefix { $0.isASCIIDigit }) ?? report.threads.count
                var name: String?
                if let open = header.firstIndex(of: "\""), let close = header.lastIndex(of: "\""), open < close {
                    name = String(header[header.index(after: open)..<close])
                }
                thread = CrashThread(index: index, name: name, crashed: header.hasSuffix(" crashed"), frames: [])
                continue
            }
            guard thread != nil else { continue }
            let parsedFrame = frame(in: whole)
            if parsedFrame == nil, let friendly = friendlyFrame(in: String(text)) {
                // The interactive backtracer's friendly frames: named and placed already, without addresses.
                let image = report.imageIndex(named: friendly.image, path: nil)
                var frame = CrashFrame(
                    index: friendly.index, address: nil, addressKind: .returnAddress, image: image,
                    imageOffset: nil, symbolInLog: friendly.function, lineNumber: number, lineStyle: .swiftBacktrace)
                frame.isSymbolicatedInLog = true
                thread?.frames.append(frame)
                continue
            }
            guard let parsed = parsedFrame else { continue }
            // `[inlined]` frames are ones a symbolicated backtrace added; the real frame follows.
            guard !parsed.tags.contains("inlined") else { continue }
            let kind: AddressKind = parsed.tags.contains("ra") ? .returnAddress : .programCounter
            let image = report.images.firstIndex { image in
                guard let start = image.loadAddress, let end = image.endAddress else { return false }
                return parsed.address >= start && parsed.address < end
            }
            var frame = CrashFrame(
                index: parsed.index, address: parsed.address, addressKind: kind, image: image,
                imageOffset: nil, lineNumber: number, lineStyle: .swiftBacktrace)
            if parsed.tags.contains("async") { frame.markInLog = .asyncCaller }
            thread?.frames.append(frame)
        }
        close()
        if crashReason != nil || fatalMessage != nil {
            report.exception = CrashReport.Exception(type: crashReason, message: fatalMessage)
        }
        return report
    }
}
