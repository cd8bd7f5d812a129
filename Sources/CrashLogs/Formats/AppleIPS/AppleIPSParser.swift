import LogFraming
import PostmortemCore

/// Parses Apple's `.ips` reports: a one-line JSON header with `bug_type`, then for bug type 309 a JSON
/// body (`threads[].frames[]` as `imageIndex` + `imageOffset` into `usedImages`, `lastExceptionBacktrace`),
/// or for the older 109 the legacy text report.
struct AppleIPSParser {
    static func recognizes(_ lines: [LogLine]) -> Bool {
        guard let first = lines.first?.text, first.hasPrefix("{"), first.hasSuffix("}") else { return false }
        return first.includes("\"bug_type\"")
    }

    /// - Parameter bytes: the log the lines were split from.
    static func parse(_ lines: [LogLine], bytes: [UInt8], source: String) throws(CrashLogError) -> CrashReport {
        let headerLength = lines.first?.byteCount ?? 0
        let header: JSONNode
        do { header = try JSONParser.parse(bytes, range: 0..<headerLength) } catch {
            throw CrashLogError(
                source: source, detail: "the .ips header line is not JSON (byte \(error.offset): \(error.reason))")
        }
        let bugType = header["bug_type"]?.string ?? header["bug_type"]?.unsigned.map { String($0) } ?? "?"
        switch bugType {
        case "309":
            // Some tools keep the header line before a text `.crash` body: read that body as a `.crash`.
            if lines.count > 1,
                lines.dropFirst().first(where: { !$0.text.trimmingWhitespace.isEmpty })?.text.hasPrefix("{") == false,
                AppleCrashParser.recognizes(Array(lines.dropFirst()))
            {
                return AppleCrashParser.parse(lines)
            }
            return try parseBody(lines, bytes: bytes, bodyStart: headerLength, source: source)
        case "109":
            // The legacy text report after the header line: parse it as a `.crash`, lines numbered in the whole log.
            var report = AppleCrashParser.parse(lines)
            report.format = .appleIPS
            return report
        case "151", "210":
            return try parsePanic(lines, bytes: bytes, bodyStart: headerLength, source: source)
        default:
            let kind = [
                "151": "a kernel panic", "210": "a kernel panic", "298": "a jetsam event", "288": "a stackshot",
                "202": "a resource report", "206": "a microstackshot report", "185": "a wakeups report"
            ][bugType]
            throw CrashLogError(
                source: source,
                detail: "an .ips of bug_type \(bugType)\(kind.map { " (\($0))" } ?? ""): not a crash report with stacks"
            )
        }
    }

    /// A kernel panic (bug types 151 and 210): what panicked, from the first line of the panic string, and the panicked
    /// thread's backtrace, its `lr: 0x… fp: 0x…` lines. The kernel's addresses need the kernel cache to resolve; the
    /// report is read, not symbolicated.
    private static func parsePanic(_ lines: [LogLine], bytes: [UInt8], bodyStart: Int, source: String)
        throws(CrashLogError) -> CrashReport
    {
        let body: JSONNode
        do { body = try JSONParser.parse(bytes, range: bodyStart..<bytes.count) } catch {
            throw CrashLogError(
                source: source, detail: "the .ips body is not valid JSON (byte \(error.offset): \(error.reason))")
        }
        var report = CrashReport(format: .appleIPS, exception: nil, threads: [], images: [], lines: lines)
        let panic = body["string"]?.string ?? ""
        let panicLines = panic.split(separator: "\n", omittingEmptySubsequences: false)
        report.exception = CrashReport.Exception(type: "panic", message: panicLines.first.map(String.init))
        let stringLine = lines.indices.first { lines[$0].text.includes("\"string\"") } ?? 0
        var frames: [CrashFrame] = []
        var threadName: String?
        for line in panicLines {
            let text = line.trimmingBlanks
            if text.hasPrefix("Panicked thread: ") { threadName = String(text) }
            guard text.hasPrefix("lr: "), let address = HexNumber.parse(text.dropFirst(4).prefix { $0 != " " }) else {
                continue
            }
            frames.append(
                CrashFrame(
                    index: frames.count, address: address, addressKind: .returnAddress, image: nil, imageOffset: nil,
                    lineNumber: stringLine))
        }
        if !frames.isEmpty {
            report.threads.append(
                CrashThread(index: 0, name: threadName ?? "Panicked thread", crashed: true, frames: frames))
        }
        return report
    }

    private static func parseBody(_ lines: [LogLine], bytes: [UInt8], bodyStart: Int, source: String)
        throws(CrashLogError) -> CrashReport
    {
        let body: JSONNode
        do { body = try JSONParser.parse(bytes, range: bodyStart..<bytes.count) } catch {
            throw CrashLogError(
                source: source, detail: "the .ips body is not valid JSON (byte \(error.offset): \(error.reason))")
        }
        var report = CrashReport(format: .appleIPS, exception: nil, threads: [], images: [], lines: lines)
        for (index, image) in (body["usedImages"]?.array ?? []).enumerated() {
            let base = image["base"]?.unsigned
            let size = image["size"]?.unsigned
            report.images.append(
                CrashImage(
                    name: image["name"]?.string ?? image["path"]?.string.map(FilePath.fileName(of:))
                        ?? "image \(index)",
                    path: image["path"]?.string, identifier: image["uuid"]?.string, identifierKind: .uuid,
                    architecture: image["arch"]?.string,
                    loadAddress: base, endAddress: base.flatMap { base in size.map { base &+ $0 } }))
        }
        let lineStarts = lines.reduce(into: [0]) { $0.append($0.last! + $1.byteCount) }
        func lineNumber(of offset: Int) -> Int {
            var low = 0, high = lineStarts.count - 1
            while low + 1 < high {
                let middle = (low + high) / 2
                if lineStarts[middle] <= offset { low = middle } else { high = middle }
            }
            return low
        }
        func frames(_ list: [JSONNode]) -> [CrashFrame] {
            list.enumerated().compactMap { position, node in
                // Frames Xcode added for inlined code repeat their caller's offset: not frames of their own.
                if node["inline"]?.bool == true { return nil }
                let imageIndex = node["imageIndex"]?.unsigned.map(Int.init)
                let offset = node["imageOffset"]?.unsigned
                let image = imageIndex.flatMap { $0 < report.images.count ? $0 : nil }
                if imageIndex != nil, image == nil {
                    report.warnings.append(
                        "a frame names image \(imageIndex!), past the \(report.images.count) images listed")
                }
                let base = image.flatMap { report.images[$0].loadAddress }
                var frame = CrashFrame(
                    index: position, address: offset.map { offset in base.map { $0 &+ offset } ?? offset },
                    addressKind: position == 0 ? .programCounter : .returnAddress, image: image,
                    imageOffset: base == 0 ? nil : offset, symbolInLog: node["symbol"]?.string,
                    symbolOffsetInLog: node["symbolLocation"]?.unsigned,
                    lineNumber: lineNumber(of: node.span.lowerBound),
                    lineStyle: .jsonObject)
                frame.byteRange = node.span
                return frame
            }
        }
        for (index, thread) in (body["threads"]?.array ?? []).enumerated() {
            let name = thread["name"]?.string ?? thread["queue"]?.string
            let crashed = thread["triggered"]?.bool ?? (body["faultingThread"]?.unsigned == UInt64(index))
            report.threads.append(
                CrashThread(index: index, name: name, crashed: crashed, frames: frames(thread["frames"]?.array ?? [])))
        }
        if let backtrace = body["lastExceptionBacktrace"]?.array {
            report.threads.append(
                CrashThread(
                    index: report.threads.count, name: "Last Exception Backtrace", crashed: false,
                    frames: frames(backtrace)))
        }
        if let exception = body["exception"] {
            let type = [exception["type"]?.string, exception["signal"]?.string.map { "(\($0))" }].compactMap { $0 }
                .joined(separator: " ")
            var message: [String] = []
            if case .object(let members)? = body["asi"]?.value {
                for member in members {
                    for line in member.value.array ?? [] { if let text = line.string { message.append(text) } }
                }
            }
            if let indicator = body["termination"]?["indicator"]?.string { message.append(indicator) }
            report.exception = CrashReport.Exception(
                type: type.isEmpty ? nil : type, message: message.isEmpty ? nil : message.joined(separator: "\n"))
        }
        return report
    }
}
