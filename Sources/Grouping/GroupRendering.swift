import CrashLogs
import LogFraming
import PostmortemCore

/// The groups as text (for people) and JSON (for scripts and `--baseline`).
package enum GroupRendering {
    /// One JSON document: `{"groups": [{"signature", "count", "logs", "frames", "firstSeen", "lastSeen"}, …]}`.
    package static func json(_ groups: [CrashGroups.Group]) -> String {
        let items = groups.map { group in
            JSONText.object([
                ("signature", JSONText.quote(group.signature)),
                ("count", JSONText.number(group.count)),
                ("logs", JSONText.array(group.logs.map(JSONText.quote))),
                ("frames", JSONText.array(group.frames.map(frameJSON))),
                ("exception", JSONText.string(group.exception)),
                ("firstSeen", JSONText.string(group.firstSeen.map(LogTime.iso8601))),
                ("lastSeen", JSONText.string(group.lastSeen.map(LogTime.iso8601)))
            ])
        }
        return "{\"groups\": [\n" + items.map { "  " + $0 }.joined(separator: ",\n") + (items.isEmpty ? "" : "\n")
            + "]}\n"
    }

    private static func frameJSON(_ frame: SignatureFrame) -> String {
        JSONText.object([
            ("function", JSONText.string(frame.function)),
            ("module", JSONText.string(frame.module)),
            (
                "moduleOffset",
                JSONText.string(frame.function == nil ? frame.moduleOffset.map { "0x" + String($0, radix: 16) } : nil)
            )
        ])
    }

    /// Each group: its count and signature, when it was seen, its exception, a representative log and its frames.
    package static func text(_ groups: [CrashGroups.Group], crashCount: Int, title: String = "crash") -> String {
        var out =
            "\(crashCount) \(crashCount == 1 ? title : title + "es") in \(groups.count) group\(groups.count == 1 ? "" : "s")\n"
        for group in groups {
            out += "\n\(group.count)× \(group.signature)\n"
            if let first = group.firstSeen, let last = group.lastSeen {
                out +=
                    first == last
                    ? "   seen      \(LogTime.iso8601(first))\n"
                    : "   seen      \(LogTime.iso8601(first)) … \(LogTime.iso8601(last))\n"
            }
            if let exception = group.exception { out += "   exception \(exception)\n" }
            let more = group.logs.count > 1 ? " (and \(group.logs.count - 1) more)" : ""
            out += "   log       \(group.logs[0])\(more)\n"
            for frame in group.frames {
                let name = frame.function ?? frame.moduleAndOffset ?? "?"
                out +=
                    "     \(name)" + (frame.function != nil && frame.module != nil ? "  (\(frame.module!))" : "") + "\n"
            }
        }
        return out
    }

    /// `--explain`: every frame of the crashing stack with what named it and what became of it, then the signature, and
    /// a note when names other than the debug information's made it.
    package static func explanation(_ signature: CrashSignature, log: String, format: String, frameCount: Int) -> String
    {
        var out =
            "\(log) (\(format)): the crashing stack, \(frameCount) meaningful frame\(frameCount == 1 ? "" : "s") at most\n"
        let rows = signature.decisions.map { decision -> (String, String, String, String) in
            let frame = decision.frame
            let number = "#\(frame.index)" + (frame.inlineDepth > 0 ? " inlined" : "")
            let name = frame.function ?? (frame.moduleAndOffset.map { "\($0) (unresolved)" } ?? "(no name, no module)")
            let source = frame.function == nil ? "" : "[\(frame.namedBy.rawValue)]"
            return (number, name, source, describe(decision.outcome))
        }
        let numberWidth = rows.map(\.0.count).max() ?? 0
        let nameWidth = min(rows.map(\.1.count).max() ?? 0, 60)
        let sourceWidth = rows.map(\.2.count).max() ?? 0
        func padded(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(0, width - text.count))
        }
        for (number, name, source, outcome) in rows {
            out +=
                "  \(padded(number, numberWidth))  \(padded(name, nameWidth))  \(padded(source, sourceWidth))  \(outcome)\n"
        }
        out += "signature: \(signature.text)\n"
        let sources = Set(signature.frames.compactMap { $0.function == nil ? nil : $0.namedBy })
        if sources.contains(where: { $0 != .debugInformation }) {
            // The names a signature is made of depend on what was found: debug information names inlined calls, a
            // symbol table only the function an address lies in, a log what its producer knew.
            out +=
                "note: named by \(sources.map(\.rawValue).sorted().joined(separator: " and ")); where the debug "
                + "information is found (inlined calls counted), or other names are, this crash may sign differently, and a "
                + "baseline made so may not match\n"
        }
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
        case .asyncCaller: "skipped (an async caller: a debugger's stack does not show it)"
        case .cut(let rule): "cut with the frames above it (\(name(rule)))"
        case .above(let rule): "above the \(rule.kind.rawValue) frame (\(name(rule)))"
        case .sentinel(let rule): "used, the signature starts here (\(name(rule)))"
        case .unresolved: "left out: unresolved"
        case .usedUnresolved: "used as module@offset: no frame has a name"
        case .beyondLimit: "not needed: the signature has its frames"
        }
    }
}
