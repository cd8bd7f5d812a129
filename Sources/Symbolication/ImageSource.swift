public import ObjectFiles

/// Images opened once and shared by many symbolicators at once (a server's, shared by the requests it answers): an
/// opened image serves every thread.
public protocol ImageSource: Sendable {
    /// The image at `path` (slice `architecture` of a universal file) showing Swift names in `swiftNames`' style,
    /// opened once; `nil` when it cannot be opened (said to the source's diagnostics). What opening found
    /// (``ImageSymbolizer/openingDiagnostics``) is the caller's to say, once it uses the image.
    func image(path: String, architecture: Architecture?, swiftNames: Demangler.Style) -> ImageSymbolizer?
}
