/// Swift's own demangler, for the shapes of ordinary code: the full names `swift_demangle` prints, the simplified
/// names the Swift runtime's backtracer prints (`closure #1 in Ledger.total(at:)`), and the same with parameter
/// types (`Ledger.total(at: Int)`), the form crash pipelines' symbol files show.
///
/// It declines (nil) what it does not read or print exactly as the runtime of this toolchain does; callers then ask
/// the runtime's demangler. Reusable: one value per thread keeps its buffers from one name to the next.
///
/// The product uses it for every form: it is faster than the runtime's demangler, which keeps no buffers from one name
/// to the next, and the form with parameter types only it prints.
package struct SwiftSymbolDemangler {
    /// What a demangled name shows.
    package enum Style: Sendable {
        /// As `swift_demangle`'s simplified options (the runtime's backtracer) show it.
        case simplified
        /// The simplified form with the parameters' types (`add(_: Shape)` is `add(Shape)`… with labels:
        /// `total(at: Int)`), as Mozilla's dump_syms writes Swift names into symbol files.
        case simplifiedWithParameterTypes
        /// Everything, as `swift_demangle` shows it with no flags
        /// (`M.Ledger.total(at: Swift.Int) -> Swift.Int`).
        case full
    }

    private var parser = SwiftSymbolParser()
    private let output = RawBuffer<UInt8>(capacity: 512)

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
        let options: SwiftNameOptions =
            switch style {
            case .simplified: .simplified
            case .simplifiedWithParameterTypes: .withParameterTypes
            case .full: .full
            }
        var printer = SwiftNamePrinter(tree: parser.tree, options: options, output: output)
        printer.print(root)
        guard printer.isValid, output.count > 0 else { return nil }
        return String(decoding: output.elements, as: UTF8.self)
    }
}
