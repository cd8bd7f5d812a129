/// Differences from llvm-symbolizer that are understood, each with its reason.
/// A disagreement that matches none of these fails the differential tests.
enum KnownDifferences {
    static func reason(postmortem: [ComparableFrame], llvmSymbolizer: [ComparableFrame]) -> String? {
        if llvmSymbolizer.isEmpty, postmortem.count == 1, let only = postmortem.first, only.file == nil, only.function != nil {
            return "code without DWARF in a stripped binary: llvm-symbolizer reads only the binary's own symbols and finds"
                + " none; postmortem names it from the debug file's .symtab"
        }
        return nil
    }
}
