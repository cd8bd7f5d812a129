/// What a crash is grouped by, and how it was made.
package struct CrashSignature: Hashable, Sendable {
    /// The parts joined by ` | `; `EMPTY: …` when nothing could be used.
    package var text: String
    /// The frames the signature was made of, in stack order.
    package var frames: [SignatureFrame]
    /// Every frame of the crashing stack with what became of it, for `--explain`.
    package var decisions: [FrameDecision]
}

/// What became of one frame while a signature was made.
package struct FrameDecision: Hashable, Sendable {
    /// What a rule (or its absence) did with the frame.
    package enum Outcome: Hashable, Sendable {
        /// Part of the signature, counted towards its frames.
        case used
        /// Part of the signature, not counted (a `prefix` rule).
        case prefix(SignatureRule)
        /// Left out by a `skip` rule.
        case skipped(SignatureRule)
        /// A compiler-made thunk, left out.
        case thunk
        /// An async function's caller, left out: only some reporters see it.
        case asyncCaller
        /// Matched a `cut` rule: left out with every frame above it.
        case cut(SignatureRule)
        /// Above a frame that a `cut` or `sentinel` rule matched.
        case above(SignatureRule)
        /// Matched a `sentinel` rule: the signature starts here.
        case sentinel(SignatureRule)
        /// Nothing named it: left out, since named frames exist (used as `module@offset` only when none do).
        case unresolved
        /// Named by module and offset, as no frame has a name.
        case usedUnresolved
        /// After the signature had its frames.
        case beyondLimit
    }

    /// The frame decided on.
    package var frame: SignatureFrame
    /// What became of it.
    package var outcome: Outcome
}

extension FrameDecision.Outcome {
    /// The rule that decided, when one did.
    package var rule: SignatureRule? {
        switch self {
        case .prefix(let rule), .skipped(let rule), .cut(let rule), .above(let rule), .sentinel(let rule): rule
        default: nil
        }
    }
}
