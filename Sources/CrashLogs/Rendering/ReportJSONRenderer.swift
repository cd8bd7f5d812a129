import PostmortemCore

/// Prints a report as the JSON of DESIGN.md: format, exception, threads with frames and their symbols, images.
public struct ReportJSONRenderer: Sendable {
    /// A renderer (it keeps no state).
    public init() {}

    /// `report` as one JSON object: format, exception, threads with their frames and symbols, images, then `extra`
    /// members (already encoded: an upload's annotations, say).
    public func render(_ report: CrashReport, extra: [(String, String)] = []) -> String {
        let exception = report.exception.map {
            JSONText.object([("type", JSONText.string($0.type)), ("message", JSONText.string($0.message))])
        } ?? "null"
        // Stacks Postmortem walked itself number their threads by the kernel's thread id.
        let walked: Set<CrashLogFormat> = [.elfCore, .process, .minidump]
        let threads = report.threads.map { thread in
            var members = [
                ("index", "\(thread.index)"),
                ("name", JSONText.string(thread.name)),
                ("crashed", thread.crashed ? "true" : "false"),
                ("frames", JSONText.array(thread.frames.map { frame(report, $0) })),
            ]
            if walked.contains(report.format) { members.insert(("id", "\(thread.index)"), at: 1) }
            if let reason = thread.stopReason { members.append(("stopReason", JSONText.quote(reason))) }
            if !thread.registers.isEmpty {
                members.append(("registers", JSONText.object(thread.registers.map { ($0.name, JSONText.quote(Self.hex($0.value))) })))
            }
            return JSONText.object(members)
        }
        let images = report.images.map { image in
            JSONText.object([
                ("name", JSONText.quote(image.name)),
                ("path", JSONText.string(image.path)),
                ("id", JSONText.string(image.identifier)),
                ("arch", JSONText.string(image.architecture)),
                ("loadAddress", JSONText.string(image.loadAddress.map(Self.hex))),
                ("endAddress", JSONText.string(image.endAddress.map(Self.hex))),
                ("debugFile", JSONText.string(image.debugFile)),
                ("identifiedBy", JSONText.string(image.identifiedBy?.rawValue)),
            ])
        }
        return JSONText.object([
            ("format", JSONText.quote(report.format.rawValue)),
            ("exception", exception),
            ("threads", JSONText.array(threads)),
            ("images", JSONText.array(images)),
        ] + extra)
    }

    /// The frame's offset into its image: as the log gives it, or from the image's load address.
    private static func imageOffset(of frame: CrashFrame, in report: CrashReport) -> UInt64? {
        if let offset = frame.imageOffset { return offset }
        guard let address = frame.address, let image = frame.image.map({ report.images[$0] }), let load = image.loadAddress,
              address >= load, image.endAddress.map({ address < $0 }) ?? true else { return nil }
        return address - load
    }

    /// What symbolication found, or else what the log itself named with a source position (a debugger's frame), so
    /// that a frame the log named is never left without a name.
    private static func symbols(of frame: CrashFrame) -> [SymbolicatedFrame] {
        guard frame.symbols.isEmpty, frame.isSymbolicatedInLog || frame.sourceInLog != nil, let name = frame.symbolInLog else { return frame.symbols }
        return [SymbolicatedFrame(function: name, linkageName: nil, file: frame.sourceInLog?.file, line: frame.sourceInLog?.line ?? 0,
                                  column: 0, isInlined: false)]
    }

    private func frame(_ report: CrashReport, _ frame: CrashFrame) -> String {
        var members: [(String, String)] = [
            ("index", "\(frame.index)"),
            ("address", JSONText.string(frame.address.map(Self.hex))),
            ("image", JSONText.string(frame.image.map { report.images[$0].name })),
            ("imageOffset", JSONText.string(Self.imageOffset(of: frame, in: report).map(Self.hex))),
            ("symbols", JSONText.array(Self.symbols(of: frame).map(Self.json(symbol:)))),
        ]
        // What the log itself names (a system frame the device symbolicated, `sym+0xoff`), so nothing is lost.
        if let symbol = frame.symbolInLog { members.append(("symbolInLog", JSONText.quote(symbol))) }
        if let offset = frame.symbolOffsetInLog { members.append(("symbolOffsetInLog", "\(offset)")) }
        if let reason = frame.unresolvedReason { members.append(("unresolvedReason", JSONText.quote(reason.description))) }
        if let lookup = frame.lookupAddress { members.append(("lookupAddress", JSONText.quote(Self.hex(lookup)))) }
        if let trust = frame.trust {
            members.append(("trust", JSONText.quote(trust.rawValue)))
            // A walked frame's module and its offset from the module's load address, as minidump processors give them.
            if let image = frame.image.map({ report.images[$0] }), let address = frame.address, let load = image.loadAddress {
                members.append(("module", JSONText.quote(image.name)))
                members.append(("moduleOffset", JSONText.quote(Self.hex(address &- load))))
            }
        }
        return JSONText.object(members)
    }

    /// `{"function", "linkageName", "file", "line", "column", "inlined"}`: one frame of an inline chain,
    /// as both `symbolicate --json` and `resolve --json` print it.
    public static func json(symbol: SymbolicatedFrame) -> String {
        var members = [
            ("function", JSONText.string(symbol.function)),
            ("linkageName", JSONText.string(symbol.linkageName)),
            ("file", JSONText.string(symbol.file)),
            ("line", "\(symbol.line)"),
            ("column", "\(symbol.column)"),
            ("inlined", symbol.isInlined ? "true" : "false"),
        ]
        // The source around the line, as Sentry's frames give it, when `--source-context` found it.
        if let source = symbol.source, let line = source.contextLine {
            members.append(("preContext", JSONText.array(source.preContext.map(JSONText.quote))))
            members.append(("contextLine", JSONText.quote(line)))
            members.append(("postContext", JSONText.array(source.postContext.map(JSONText.quote))))
        }
        return JSONText.object(members)
    }

    private static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
}
