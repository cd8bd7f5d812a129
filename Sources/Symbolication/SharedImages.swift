public import ObjectFiles

/// Images opened once and lent to many symbolicators: a server's, shared by the requests it answers at once. A
/// symbolizer lent is used by its borrower alone until it is given back.
public protocol SharedImages: AnyObject, Sendable {
    /// A symbolizer of the image at `path` (of slice `architecture` of a universal file) for the caller alone, or
    /// `nil` when it cannot be opened (said to the lender's diagnostics).
    func borrow(path: String, architecture: Architecture?) -> ImageSymbolizer?
    /// Ends the loan of `symbolizer`, borrowed for `path` and `architecture`.
    func giveBack(_ symbolizer: ImageSymbolizer, path: String, architecture: Architecture?)
}
