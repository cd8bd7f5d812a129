/// Swift's own demangler, for the shapes of ordinary code: the simplified names the Swift runtime's backtracer
/// prints (`closure #1 in Ledger.total(at:)`), and the same with parameter types (`Ledger.total(at: Int)`), the
/// form crash pipelines' symbol files show.
///
/// It declines (nil) what it does not read or print exactly as the runtime of this toolchain does; callers then ask
/// the runtime's demangler. Reusable: one value per thread keeps its buffers from one name to the next.
package struct SwiftSymbolDemangler {
    /// What a demangled name shows.
    package enum Style: Sendable {
        /// As `swift_demangle`'s simplified options (the runtime's backtracer) show it.
        case simplified
        /// The simplified form with the parameters' types (`add(_: Shape)` is `add(Shape)`… with labels:
        /// `total(at: Int)`), as Mozilla's dump_syms writes Swift names into symbol files.
        case simplifiedWithParameterTypes
    }

    private var parser = SwiftSymbolParser()
    private var buffer: [UInt8] = []

    /// A demangler with empty buffers.
    package init() {}

    /// The name `symbol` demangles to in `style`, or nil when this demangler declines it.
    package mutating func demangle(_ symbol: String, style: Style = .simplified) -> String? {
        var symbol = symbol
        return symbol.withUTF8 { demangle(bytes: $0, style: style) }
    }

    /// The name the mangled bytes demangle to in `style`, or nil when this demangler declines them.
    package mutating func demangle(bytes: UnsafeBufferPointer<UInt8>, style: Style = .simplified) -> String? {
        guard let root = parser.parse(bytes) else { return nil }
        var printer = SwiftNamePrinter(
            tree: parser.tree, showsArgumentTypes: style == .simplifiedWithParameterTypes, reusing: buffer)
        printer.print(root)
        defer { buffer = printer.output }
        guard printer.isValid, !printer.output.isEmpty else { return nil }
        return String(decoding: printer.output, as: UTF8.self)
    }
}
