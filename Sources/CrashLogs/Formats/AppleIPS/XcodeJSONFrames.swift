import PostmortemCore

/// A resolved frame of a JSON report as Xcode writes a symbolicated `.ips`: `symbol`, `symbolLocation`, `sourceFile`,
/// `sourceLine`, inlined frames as objects of their own with `"inline":true` before it; the frame's other members kept.
enum XcodeJSONFrames {
    /// The members a symbolicated frame object gets anew (from either style), dropped from the original first.
    static let symbolFields: Set<String> = [
        "symbol", "symbolLocation", "sourceFile", "sourceLine", "sourceColumn", "inline", "offset", "image",
        "sourceLocation", "inlined", "description"
    ]

    /// One object a symbol of `frame`'s inline chain, `kept` written as they were.
    static func objects(_ frame: CrashFrame, kept: [(key: String, value: JSONNode)], bytes: [UInt8]) -> [String] {
        let members = kept.map { JSONText.quote($0.key) + ":" + String(decoding: bytes[$0.value.span], as: UTF8.self) }
        return frame.symbols.map { symbol -> String in
            var fields = members
            fields.append("\"symbol\":" + JSONText.quote(symbol.function ?? "???"))
            if !symbol.isInlined, let offset = frame.functionOffset {
                fields.append("\"symbolLocation\":\(offset)")
            }
            if let file = symbol.file {
                fields.append("\"sourceFile\":" + JSONText.quote(FilePath.fileName(of: file)))
                fields.append("\"sourceLine\":\(symbol.line)")
            }
            if symbol.isInlined { fields.append("\"inline\":true") }
            return "{" + fields.joined(separator: ",") + "}"
        }
    }
}
