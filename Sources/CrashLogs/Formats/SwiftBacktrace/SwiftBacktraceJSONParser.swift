import LogFraming
import PostmortemCore

/// Parses the Swift backtracer's JSON crash report (`SWIFT_BACKTRACE=format=json`, Swift 6.2+): one JSON
/// object with `"kind": "crashReport"`, `threads[].frames[]` (`kind` and `address`) and `images[]` with
/// `buildId` and `baseAddress`. Text the program printed before it is kept.
struct SwiftBacktraceJSONParser {
    /// The line that holds the report, if any.
    static func reportLine(in lines: [LogLine]) -> Int? {
        lines.firstIndex {
            $0.firstByte == UInt8(ascii: "{")
                && ($0.textContains("\"kind\": \"crashReport\"") || $0.textContains("\"kind\":\"crashReport\""))
        }
    }

    /// - Parameter bytes: the log the lines were split from.
    static func parse(_ lines: [LogLine], bytes: [UInt8], reportLine: Int, source: String) throws(CrashLogError)
        -> CrashReport
    {
        let start = lines[..<reportLine].reduce(0) { $0 + $1.byteCount }
        let end = start + lines[reportLine].byteCount
        let body: JSONNode
        do { body = try JSONParser.parse(bytes, range: start..<end) } catch {
            throw CrashLogError(
                source: source,
                detail: "the backtracer's JSON report is not valid (byte \(error.offset): \(error.reason))")
        }
        var report = CrashReport(format: .swiftBacktrace, exception: nil, threads: [], images: [], lines: lines)
        for image in body["images"]?.array ?? [] {
            let base = image["baseAddress"]?.string.flatMap { HexNumber.parse($0) }
            report.images.append(
                CrashImage(
                    name: image["name"]?.string ?? "?", path: image["path"]?.string,
                    identifier: image["buildId"]?.string, identifierKind: .fromText,
                    loadAddress: base, endAddress: image["endOfText"]?.string.flatMap { HexNumber.parse($0) }))
        }
        for (index, thread) in (body["threads"]?.array ?? []).enumerated() {
            var frames: [CrashFrame] = []
            for node in thread["frames"]?.array ?? [] {
                // `truncated`, `omittedFrames`
                guard let address = node["address"]?.string.flatMap({ HexNumber.parse($0) }) else { continue }
                let kind: AddressKind = node["kind"]?.string == "returnAddress" ? .returnAddress : .programCounter
                let image = report.images.firstIndex { image in
                    guard let low = image.loadAddress, let high = image.endAddress else { return false }
                    return address >= low && address < high
                }
                var frame = CrashFrame(
                    index: frames.count, address: address, addressKind: kind, image: image, imageOffset: nil,
                    symbolInLog: node["symbol"]?.string, lineNumber: reportLine, lineStyle: .jsonObject)
                frame.byteRange = node.span
                frame.isSymbolicatedInLog = node["sourceLocation"] != nil || node["inlined"]?.bool == true
                if node["inlined"]?.bool == true {
                    frame.markInLog = .inlined
                } else if node["kind"]?.string == "asyncResumePoint" {
                    frame.markInLog = .asyncCaller
                }
                frames.append(frame)
            }
            report.threads.append(
                CrashThread(
                    index: index, name: thread["name"]?.string, crashed: thread["crashed"]?.bool ?? false,
                    frames: frames))
        }
        let fatal = lines[..<reportLine].lazy.compactMap { line -> String? in
            guard line.textContains("Fatal error: ") else { return nil }
            let text = line.text
            guard let range = text.range(of: "Fatal error: ") else { return nil }
            return String(text[range.upperBound...])
        }.first
        report.exception = CrashReport.Exception(type: body["description"]?.string, message: fatal)
        return report
    }
}
