import LogFraming
import PostmortemCore

/// Parses Android native crash tombstones (debuggerd, also inside logcat and xCrash reports):
/// `#00 pc 00000000000588e0  /system/lib64/libc.so (tgkill+8) (BuildId: …)`, where the pc is relative
/// to the library's load bias, each thread's `pid: …, tid: …, name: …` header, and the signal line.
struct AndroidTombstoneParser {
    struct FrameLine: Equatable {
        var index: Int
        var relativePC: UInt64
        var path: String
        var function: String?
        var functionOffset: UInt64?
        var buildID: String?
    }

    /// A frame of a tombstone a symbolizer has been through (ClusterFuzz, `ndk-stack`, a sanitizer's own printing):
    /// `#0 0x00084fe6 in tgkill /bionic/libc/arch-x86/syscalls/tgkill.S:20`, as sanitizers print them. Only inside a
    /// tombstone's `backtrace:` (``parse(_:)`` reads them where debuggerd's own lines are not).
    static func symbolizedFrame(in line: String) -> SanitizerParser.FrameLine? {
        SanitizerParser.frame(in: line)
    }

    static func recognizes(_ lines: [LogLine]) -> Bool {
        var frames = 0
        for line in lines {
            if line.firstByte == UInt8(ascii: "*"), Substring(line.text).startsWithBytes("*** *** *** *** ***") {
                return true
            }
            if line.textContains("Build fingerprint:") { return true }
            if line.textContains(UInt8(ascii: "#")), frame(in: line.text) != nil {
                frames += 1
                if frames >= 2 { return true }
            }
        }
        return false
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .androidTombstone, exception: nil, threads: [], images: [], lines: lines)
        var stacks = StackCollector()
        var threadName: String?
        // In logcat, only the tombstone writer's lines are the tombstone's.
        let writers = LogcatWriters.writers(of: lines)
        let tombstoneWriter = LogcatWriters.tombstoneWriter(lines, writers: writers)
        var hasException = false
        for (number, line) in lines.enumerated() {
            if let tombstoneWriter, let writer = writers[number], writer != tombstoneWriter { continue }
            // Most lines of a tombstone (maps, registers, memory, logcat) hold neither a frame's `#` nor a header's
            // field: one look at the line's bytes rules them out before any string is made.
            let (mayHaveField, mayHaveFrame, mayHaveSignal) = line.withTextBytes { bytes in
                (
                    ByteSearch.firstOffset(of: UInt8(ascii: ":"), in: bytes) != nil
                        && (ByteSearch.firstOffset(of: "pid: ".utf8.span, in: bytes) != nil
                            || ByteSearch.firstOffset(of: "Abort message: ".utf8.span, in: bytes) != nil),
                    ByteSearch.firstOffset(of: UInt8(ascii: "#"), in: bytes) != nil,
                    !hasException && ByteSearch.firstOffset(of: "signal ".utf8.span, in: bytes) != nil
                )
            }
            guard mayHaveField || mayHaveFrame || mayHaveSignal else { continue }
            let text = line.text
            if mayHaveField, let range = text.range(of: "pid: "), text.includes(", tid: ") {
                stacks.close(into: &report)
                threadName = String(text[range.lowerBound...]).trimmingWhitespace
            }
            if mayHaveSignal, let range = text.range(of: "signal "),
                text.includes("fault addr") || text.includes("code ")
            {
                let detail = String(text[range.lowerBound...]).trimmingWhitespace
                report.exception = CrashReport.Exception(
                    type: detail.split(separator: ",").first.map(String.init), message: detail)
                hasException = true
            }
            if mayHaveField, let range = text.range(of: "Abort message: ") {
                let message = String(text[range.upperBound...]).trimmingWhitespace
                report.exception = CrashReport.Exception(type: report.exception?.type, message: message)
                hasException = true
            }
            guard mayHaveFrame else { continue }
            guard let parsed = frame(in: text) else {
                if let symbolized = symbolizedFrame(in: text) {
                    if symbolized.index == 0 { stacks.close(into: &report) }
                    if stacks.current.isEmpty { stacks.noteText(threadName ?? "backtrace") }
                    var frame = symbolized.frame(lineNumber: number, report: &report)
                    frame.lineStyle = .sanitizer(indentation: FrameLineStyle.indentation(of: text))
                    stacks.append(frame)
                }
                continue
            }
            if parsed.index == 0 { stacks.close(into: &report) }
            if stacks.current.isEmpty { stacks.noteText(threadName ?? "backtrace") }
            // An APK path names its library after `!`: `base.apk!libfoo.so`. (Split only where the byte occurs:
            // splitting walks characters, and every frame of every thread of a report is here.)
            let path = parsed.path
            let name =
                !path.containsByte(UInt8(ascii: "!"))
                ? GlibcBacktraceParser.fileName(path)
                : path.split(separator: "!").last.map { GlibcBacktraceParser.fileName(String($0)) } ?? path
            let image = report.imageIndex(
                named: name.containsByte(UInt8(ascii: " "))
                    ? name.split(separator: " ").first.map(String.init) ?? name : name,
                path: path)
            if let buildID = parsed.buildID { report.images[image].identify(as: buildID) }
            // libunwindstack prints every frame but the first already moved back into the call.
            stacks.append(
                CrashFrame(
                    index: parsed.index, address: nil,
                    addressKind: parsed.index == 0 ? .programCounter : .adjustedReturnAddress,
                    image: image, imageOffset: parsed.relativePC, symbolInLog: parsed.function,
                    symbolOffsetInLog: parsed.functionOffset, lineNumber: number,
                    lineStyle: .androidTombstone(
                        headLength: text.range(of: parsed.path).map {
                            FrameLineStyle.length(of: text, upTo: $0.upperBound)
                        },
                        buildID: parsed.buildID)))
        }
        stacks.close(into: &report)
        return report
    }
}

extension SanitizerParser.FrameLine {
    /// The frame of a symbolized tombstone line: in its module at its offset when it names one; else at the address
    /// the line gives, already named and placed by the symbolizer that printed it.
    func frame(lineNumber: Int, report: inout CrashReport) -> CrashFrame {
        let image = module.map { report.imageIndex(named: GlibcBacktraceParser.fileName($0), path: $0) }
        var frame = CrashFrame(
            index: index, address: pc, addressKind: index == 0 ? .programCounter : .adjustedReturnAddress,
            image: image, imageOffset: image == nil ? nil : offset, symbolInLog: function, lineNumber: lineNumber)
        frame.isSymbolicatedInLog = module == nil && function != nil
        return frame
    }
}
