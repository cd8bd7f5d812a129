import CrashLogs
import Symbolication

/// Makes crash signatures: the crashing stack's frames after the rules have dropped those that say nothing about the
/// bug, then the first ``SignatureRules/frameCount`` meaningful frames' normalised names, joined by ` | `.
///
/// Which rule a name matches is remembered per name, since logs of one program repeat the same few hundred names:
/// one maker is meant for one run over many logs, on one thread.
package final class SignatureMaker {
    /// The rules signatures are made by.
    package let rules: SignatureRules
    private let demangler = Demangler.sharingBuffers(style: .simplified)
    private let expressions: [Regex<AnyRegexOutput>?]
    private var ruleForName: [String: Int?] = [:]
    /// Each function name met, normalized: the same names recur from crash to crash. Emptied when it grows past
    /// ``maximumRememberedNames``, so memory stays bounded on logs of ever new names.
    private var normalizedNames: [String: String] = [:]
    /// How many names ``normalizedNames`` and the rule table keep before they start again.
    static let maximumRememberedNames = 100_000

    /// A maker using `rules`.
    package init(rules: SignatureRules) {
        self.rules = rules
        // Each rule's pattern compiled when the rule was made; a list of names is looked up instead.
        expressions = rules.rules.map { $0.names == nil ? try? $0.expression() : nil }
    }

    /// The signature of a symbolicated report.
    package func signature(of report: CrashReport) -> CrashSignature {
        guard let stack = CrashingStack.of(report) else {
            return CrashSignature(text: "EMPTY: no stack" + exceptionSuffix(report), frames: [], decisions: [])
        }
        return signature(
            of: SignatureFrame.frames(of: stack, in: report, demangler: demangler, normalize: normalized),
            report: report)
    }

    /// `name` as ``FunctionNameNormalizer`` writes it, worked out once per name.
    private func normalized(_ name: String) -> String {
        if let known = normalizedNames[name] { return known }
        let result = FunctionNameNormalizer.normalize(name)
        if normalizedNames.count >= Self.maximumRememberedNames { normalizedNames.removeAll(keepingCapacity: true) }
        normalizedNames[name] = result
        return result
    }

    func signature(of frames: [SignatureFrame], report: CrashReport) -> CrashSignature {
        var outcomes = [FrameDecision.Outcome?](repeating: nil, count: frames.count)
        // The deepest frame a cut rule matches: it and everything above it go.
        if let cutIndex = frames.indices.last(where: { rule(for: frames[$0])?.kind == .cut }),
            let cut = rule(for: frames[cutIndex])
        {
            for index in 0..<cutIndex { outcomes[index] = .above(cut) }
            outcomes[cutIndex] = .cut(cut)
        }
        // The first sentinel below that: the signature starts there.
        if let sentinelIndex = frames.indices.first(where: {
            outcomes[$0] == nil && rule(for: frames[$0])?.kind == .sentinel
        }),
            let sentinel = rule(for: frames[sentinelIndex])
        {
            for index in 0..<sentinelIndex where outcomes[index] == nil { outcomes[index] = .above(sentinel) }
        }
        var used: [SignatureFrame] = []
        var counted = 0
        for (index, frame) in frames.enumerated() where outcomes[index] == nil {
            // Only the Swift runtime's backtracer and a walk of async contexts see these; a debugger's stack, a
            // minidump's and a core's walked by another tool do not: counting them would split one crash by its reporter.
            if frame.isAsyncCaller {
                outcomes[index] = .asyncCaller
                continue
            }
            guard counted < rules.frameCount else {
                outcomes[index] = .beyondLimit
                continue
            }
            guard frame.function != nil else {
                outcomes[index] = .unresolved
                continue
            }
            if frame.isThunk {
                outcomes[index] = .thunk
                continue
            }
            switch rule(for: frame) {
            case .some(let rule) where rule.kind == .skip:
                outcomes[index] = .skipped(rule)
            case .some(let rule) where rule.kind == .prefix && counted > 0:
                // Below the first meaningful frame, a library's frame only says how it was called.
                outcomes[index] = .skipped(rule)
            case .some(let rule) where rule.kind == .prefix:
                outcomes[index] = .prefix(rule)
                used.append(frame)
            case .some(let rule) where rule.kind == .sentinel:
                outcomes[index] = .sentinel(rule)
                used.append(frame)
                counted += 1
            default:
                outcomes[index] = .used
                used.append(frame)
                counted += 1
            }
        }
        // No meaningful frame had a name: module and offset stand in (stable across address-space layouts), and prefix
        // frames give way to them; with no such frame either, the prefix frames are all the crash has to say.
        if counted == 0,
            frames.indices.contains(where: { outcomes[$0] == .unresolved && frames[$0].moduleAndOffset != nil })
        {
            used = []
            for (index, frame) in frames.enumerated() {
                if case .prefix(let rule) = outcomes[index] { outcomes[index] = .skipped(rule) }
                guard outcomes[index] == .unresolved, frame.moduleAndOffset != nil, used.count < rules.frameCount else {
                    continue
                }
                outcomes[index] = .usedUnresolved
                used.append(frame)
            }
        }
        let parts = used.compactMap { $0.function ?? $0.moduleAndOffset }
        let text = parts.isEmpty ? "EMPTY: no frame to name" + exceptionSuffix(report) : parts.joined(separator: " | ")
        let decisions = frames.indices.map { FrameDecision(frame: frames[$0], outcome: outcomes[$0] ?? .beyondLimit) }
        return CrashSignature(text: text, frames: used, decisions: decisions)
    }

    private func exceptionSuffix(_ report: CrashReport) -> String {
        report.exception?.type.map { " (\($0))" } ?? ""
    }

    /// The first rule matching the frame's name, remembered per name.
    private func rule(for frame: SignatureFrame) -> SignatureRule? {
        guard let name = frame.function else { return nil }
        if let known = ruleForName[name] { return known.map { rules.rules[$0] } }
        let index = rules.rules.indices.first { rules.rules[$0].matches(name, expression: expressions[$0]) }
        if ruleForName.count >= Self.maximumRememberedNames { ruleForName.removeAll(keepingCapacity: true) }
        ruleForName[name] = .some(index)
        return index.map { rules.rules[$0] }
    }
}
