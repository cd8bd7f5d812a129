/// Differences from llvm-symbolizer that are understood, each with its reason.
/// A disagreement that matches none of these fails the differential test.
///
/// The list is empty: on every fixture each sampled address agrees. Add an entry (a predicate and its
/// reason) only for a difference that is understood and intended.
enum KnownDifferences {
    static func reason(postmortem: [ComparableFrame], llvmSymbolizer: [ComparableFrame]) -> String? {
        nil
    }
}
