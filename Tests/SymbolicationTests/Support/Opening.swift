import PostmortemCore
import Symbolication

extension ImageSymbolizer {
    /// Opened for a test that does not read what the symbolizer reports (those that do open it with a
    /// ``DiagnosticLog`` and read ``notes(with:)``).
    convenience init(path: String, options: SymbolizerOptions = SymbolizerOptions()) throws(SymbolicationError) {
        try self.init(path: path, options: options, diagnostics: .ignoring)
    }

    /// What the user would be told about this image so far: what opening found, then what `log` received.
    func notes(with log: DiagnosticLog) -> [String] {
        (openingDiagnostics + log.diagnostics).map(\.description)
    }
}
