import PostmortemCore

extension ReportTextRenderer {
    /// The tombstone's own line, with `(function+offset)` filled in and the source position after it;
    /// inlined frames as extra lines with the same number, marked `(inlined)`.
    func tombstoneLines(_ frame: CrashFrame, head: String, buildID: String?) -> [String] {
        // Everything up to and including the module path stays as the log wrote it.
        let buildID = buildID.map { " (BuildId: \($0))" } ?? ""
        return frame.symbols.map { symbol in
            let name = symbol.function ?? "???"
            let location = Self.location(symbol)
            if symbol.isInlined { return "\(head) (\(name))\(location) (inlined)" }
            let offset = frame.functionOffset.map { "+\($0)" } ?? ""
            return "\(head) (\(name)\(offset))\(buildID)\(location)"
        }
    }
}
