import PostmortemCore

/// The groups as text (for people) and JSON (for scripts and `--baseline`).
public enum GroupRendering {
    /// One JSON document: `{"groups": [{"signature", "count", "logs", "frames", "firstSeen", "lastSeen"}, …]}`.
    public static func json(_ groups: [CrashGroups.Group]) -> String {
        let items = groups.map { group in
            JSONText.object([
                ("signature", JSONText.quote(group.signature)),
                ("count", JSONText.number(group.count)),
                ("logs", JSONText.array(group.logs.map(JSONText.quote))),
                ("frames", JSONText.array(group.frames.map(frameJSON))),
                ("exception", JSONText.string(group.exception)),
                ("firstSeen", JSONText.string(group.firstSeen.map(LogTimestamp.iso8601))),
                ("lastSeen", JSONText.string(group.lastSeen.map(LogTimestamp.iso8601))),
            ])
        }
        return "{\"groups\": [\n" + items.map { "  " + $0 }.joined(separator: ",\n") + (items.isEmpty ? "" : "\n") + "]}\n"
    }

    private static func frameJSON(_ frame: SignatureFrame) -> String {
        JSONText.object([
            ("function", JSONText.string(frame.function)),
            ("module", JSONText.string(frame.module)),
            ("moduleOffset", JSONText.string(frame.function == nil ? frame.moduleOffset.map { "0x" + String($0, radix: 16) } : nil)),
        ])
    }

    /// Each group: its count and signature, when it was seen, its exception, a representative log and its frames.
    public static func text(_ groups: [CrashGroups.Group], crashCount: Int, title: String = "crash") -> String {
        var out = "\(crashCount) \(crashCount == 1 ? title : title + "es") in \(groups.count) group\(groups.count == 1 ? "" : "s")\n"
        for group in groups {
            out += "\n\(group.count)× \(group.signature)\n"
            if let first = group.firstSeen, let last = group.lastSeen {
                out += first == last ? "   seen      \(LogTimestamp.iso8601(first))\n"
                    : "   seen      \(LogTimestamp.iso8601(first)) … \(LogTimestamp.iso8601(last))\n"
            }
            if let exception = group.exception { out += "   exception \(exception)\n" }
            let more = group.logs.count > 1 ? " (and \(group.logs.count - 1) more)" : ""
            out += "   log       \(group.logs[0])\(more)\n"
            for frame in group.frames {
                let name = frame.function ?? frame.moduleAndOffset ?? "?"
                out += "     \(name)" + (frame.function != nil && frame.module != nil ? "  (\(frame.module!))" : "") + "\n"
            }
        }
        return out
    }

    /// `--explain`: every frame of the crashing stack with what became of it, then the signature.
    public static func explanation(_ signature: CrashSignature, log: String, format: String, frameCount: Int) -> String {
        var out = "\(log) (\(format)): the crashing stack, \(frameCount) meaningful frame\(frameCount == 1 ? "" : "s") at most\n"
        let rows = signature.decisions.map { decision -> (String, String, String) in
            let frame = decision.frame
            let number = "#\(frame.index)" + (frame.inlineDepth > 0 ? " inlined" : "")
            let name = frame.function ?? (frame.moduleAndOffset.map { "\($0) (unresolved)" } ?? "(no name, no module)")
            return (number, name, describe(decision.outcome))
        }
        let numberWidth = rows.map(\.0.count).max() ?? 0
        let nameWidth = min(rows.map(\.1.count).max() ?? 0, 60)
        for (number, name, outcome) in rows {
            let paddedNumber = number + String(repeating: " ", count: numberWidth - number.count)
            let paddedName = name + String(repeating: " ", count: max(0, nameWidth - name.count))
            out += "  \(paddedNumber)  \(paddedName)  \(outcome)\n"
        }
        out += "signature: \(signature.text)\n"
        var rulesUsed: [SignatureRule] = []
        for decision in signature.decisions {
            if let rule = decision.outcome.rule, !rulesUsed.contains(rule) { rulesUsed.append(rule) }
        }
        if !rulesUsed.isEmpty {
            out += "rules:\n" + rulesUsed.map { "  \($0.origin)  \($0.kind.rawValue) \($0.pattern)\n" }.joined()
        }
        return out
    }

    private static func name(_ rule: SignatureRule) -> String { "\(rule.kind.rawValue) rule \(rule.origin)" }

    static func describe(_ outcome: FrameDecision.Outcome) -> String {
        switch outcome {
        case .used: "used"
        case .prefix(let rule): "used, not counted (\(name(rule)))"
        case .skipped(let rule): "skipped (\(name(rule)))"
        case .thunk: "skipped (a thunk)"
        case .cut(let rule): "cut with the frames above it (\(name(rule)))"
        case .above(let rule): "above the \(rule.kind.rawValue) frame (\(name(rule)))"
        case .sentinel(let rule): "used, the signature starts here (\(name(rule)))"
        case .unresolved: "left out: unresolved"
        case .usedUnresolved: "used as module@offset: no frame has a name"
        case .beyondLimit: "not needed: the signature has its frames"
        }
    }
}
