import PostmortemCore

/// Prints a report as the JSON of DESIGN.md: format, exception, threads with frames and their symbols, images.
public struct ReportJSONRenderer: Sendable {
    /// A renderer (it keeps no state).
    public init() {}

    /// `report` as one JSON object: format, exception, threads with their frames and symbols, images, then `extra`
    /// members (already encoded: an upload's annotations, say).
    public func render(_ report: CrashReport, extra: [(String, String)] = []) -> String {
        String(decoding: renderBytes(report, extra: extra), as: UTF8.self)
    }

    /// ``render(_:extra:)``'s text as UTF-8 bytes, written into one buffer.
    public func renderBytes(_ report: CrashReport, extra: [(String, String)] = []) -> [UInt8] {
        var json = JSONBytes(capacity: 512 + 256 * report.threads.reduce(0) { $0 + $1.frames.count })
        json.beginObject()
        json.member("format", report.format.rawValue)
        json.key("exception")
        if let exception = report.exception {
            json.beginObject()
            json.member("type", exception.type)
            json.member("message", exception.message)
            json.endObject()
        } else {
            json.encoded("null")
        }
        // Stacks Postmortem walked itself number their threads by the kernel's thread id.
        let walked: Set<CrashLogFormat> = [.elfCore, .process, .minidump]
        json.key("threads")
        json.beginArray()
        for thread in report.threads {
            json.beginObject()
            json.member("index", number: thread.index)
            if walked.contains(report.format) {
                json.member("id", number: thread.index)
            }
            json.member("name", thread.name)
            json.member("crashed", bool: thread.crashed)
            json.key("frames")
            json.beginArray()
            for frame in thread.frames { write(frame, of: report, into: &json) }
            json.endArray()
            if let reason = thread.stopReason {
                json.member("stopReason", reason)
            }
            if !thread.registers.isEmpty {
                json.key("registers")
                json.beginObject()
                for register in thread.registers {
                    json.member(register.name, Self.hex(register.value))
                }
                json.endObject()
            }
            json.endObject()
        }
        json.endArray()
        json.key("images")
        json.beginArray()
        for image in report.images {
            json.beginObject()
            for (key, value) in [
                ("name", image.name), ("path", image.path), ("id", image.identifier), ("arch", image.architecture),
                ("loadAddress", image.loadAddress.map(Self.hex)), ("endAddress", image.endAddress.map(Self.hex)),
                ("debugFile", image.debugFile), ("identifiedBy", image.identifiedBy?.rawValue)
            ] as [(String, String?)] {
                json.member(key, value)
            }
            json.endObject()
        }
        json.endArray()
        for (key, value) in extra {
            json.key(key)
            json.encoded(value)
        }
        json.endObject()
        return json.bytes
    }

    /// The frame's offset into its image: as the log gives it, or from the image's load address.
    private static func imageOffset(of frame: CrashFrame, in report: CrashReport) -> UInt64? {
        if let offset = frame.imageOffset { return offset }
        guard let address = frame.address, let image = frame.image.map({ report.images[$0] }),
            let load = image.loadAddress,
            address >= load, image.endAddress.map({ address < $0 }) ?? true
        else { return nil }
        return address - load
    }

    /// What symbolication found, or else what the log itself named with a source position (a debugger's frame), so
    /// that a frame the log named is never left without a name.
    private static func symbols(of frame: CrashFrame) -> [SymbolicatedFrame] {
        guard frame.symbols.isEmpty, frame.isSymbolicatedInLog || frame.sourceInLog != nil, let name = frame.symbolInLog
        else { return frame.symbols }
        return [
            SymbolicatedFrame(
                function: name, linkageName: nil, file: frame.sourceInLog?.file, line: frame.sourceInLog?.line ?? 0,
                column: 0, isInlined: false)
        ]
    }

    private func write(_ frame: CrashFrame, of report: CrashReport, into json: inout JSONBytes) {
        json.beginObject()
        json.member("index", number: frame.index)
        json.member("address", frame.address.map(Self.hex))
        json.member("image", frame.image.map { report.images[$0].name })
        json.member("imageOffset", Self.imageOffset(of: frame, in: report).map(Self.hex))
        json.key("symbols")
        json.beginArray()
        for symbol in Self.symbols(of: frame) { Self.write(symbol, into: &json) }
        json.endArray()
        // What the log itself names (a system frame the device symbolicated, `sym+0xoff`), so nothing is lost.
        if let symbol = frame.symbolInLog {
            json.member("symbolInLog", symbol)
        }
        if let offset = frame.symbolOffsetInLog {
            json.member("symbolOffsetInLog", number: offset)
        }
        if let reason = frame.unresolvedReason {
            json.member("unresolvedReason", reason.description)
        }
        if let lookup = frame.lookupAddress {
            json.member("lookupAddress", Self.hex(lookup))
        }
        if let trust = frame.trust {
            json.member("trust", trust.rawValue)
            // A walked frame's module and its offset from the module's load address, as minidump processors give them.
            if let image = frame.image.map({ report.images[$0] }), let address = frame.address,
                let load = image.loadAddress
            {
                json.member("module", image.name)
                json.member("moduleOffset", Self.hex(address &- load))
            }
        }
        json.endObject()
    }

    /// `{"function", "linkageName", "file", "line", "column", "inlined"}`: one frame of an inline chain,
    /// as both `symbolicate --json` and `resolve --json` print it.
    public static func json(symbol: SymbolicatedFrame) -> String {
        var json = JSONBytes()
        write(symbol, into: &json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    private static func write(_ symbol: SymbolicatedFrame, into json: inout JSONBytes) {
        json.beginObject()
        json.member("function", symbol.function)
        json.member("linkageName", symbol.linkageName)
        json.member("file", symbol.file)
        json.member("line", number: symbol.line)
        json.member("column", number: symbol.column)
        json.member("inlined", bool: symbol.isInlined)
        // The source around the line, as Sentry's frames give it, when `--source-context` found it.
        if let source = symbol.source, let line = source.contextLine {
            json.key("preContext")
            json.beginArray()
            source.preContext.forEach { json.string($0) }
            json.endArray()
            json.member("contextLine", line)
            json.key("postContext")
            json.beginArray()
            source.postContext.forEach { json.string($0) }
            json.endArray()
        }
        json.endObject()
    }

    private static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
}
