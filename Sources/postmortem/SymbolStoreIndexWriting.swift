import BreakpadSymbols

extension SymbolStoreLookup {
    /// Writes the index files of the symbol files `store` parsed in this run once the answers are out (written here,
    /// not by a detached writer: they are the tables just parsed, copied out), each failure a line on stderr.
    static func finish(_ store: SymbolStoreLookup?) {
        guard let store else { return }
        Output.flush()
        store.writeIndexFiles().forEach { Output.error($0) }
    }
}
