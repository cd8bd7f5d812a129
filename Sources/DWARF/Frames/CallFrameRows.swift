import PostmortemCore

/// Rows of call-frame information by address, whatever they are read from: a binary's frame sections
/// (``CallFrameTable``), or a Breakpad symbol file's `STACK CFI` records when the binary is not at hand.
package protocol CallFrameRows: Sendable {
    /// Where the rows come from (a file's path), for messages.
    var path: String { get }
    /// The row that holds at `address`; `nil` when none covers it.
    /// - Throws: ``DWARFError`` when the rows of the function that covers it cannot be read.
    func row(at address: FileAddress) throws(DWARFError) -> CallFrameRow?
}

extension CallFrameTable: CallFrameRows {}
