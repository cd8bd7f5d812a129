import PostmortemCore
import Symbolication
import Testing

/// A symbolicator words each unresolved reason once a run and hands the same words back: they must be the reason's
/// own, for every reason, however many are asked in what order.
@Suite("Reasons' words, made once")
struct ReasonWordsTests {
    static let reasons: [UnresolvedReason] = [
        .noBinary(image: "app", path: "/bin/app", searched: ["/bin/app", "beside the log"], remotely: nil),
        .noBinary(image: "app", path: "/bin/app", searched: ["/bin/app"], remotely: nil),
        .noBinary(image: "app", path: nil, searched: [], remotely: "debuginfod: 404"),
        .noMatchingBinary(
            image: "lib", rejected: [RejectedCandidate(path: "/x/lib", origin: "below /x", reason: .unreadable)],
            remotely: nil),
        .noImage, .noLoadAddress(image: "lib"), .noLoadAddress(image: nil),
        .outsideSections(address: FileAddress(0x10), image: "lib"),
        .notCovered(address: FileAddress(0x10), hasDebugInformation: true),
        .notCovered(address: FileAddress(0x10), hasDebugInformation: false),
        .unreadableDebugInformation("truncated"), .notInSymbolFile(module: "m")
    ]

    @Test func theWordsAreEachReasonsOwn() {
        let symbolicator = Symbolicator(diagnostics: .ignoring, options: SymbolicationOptions())
        for reason in Self.reasons + Self.reasons.reversed() + Self.reasons {
            #expect(symbolicator.describe(reason) == reason.description, "\(reason)")
        }
        #expect(Set(Self.reasons.map(symbolicator.describe)).count == Self.reasons.count)
    }
}
