public import DWARF

/// Where an unwinder finds the call-frame information of the code at an address: the images of a core, a dump or a
/// process, with the binaries found for them.
public protocol CallFrameSource: Sendable {
    /// The call-frame information of the image that holds `address`, and the image's load bias (runtime address less
    /// file address); `nil` with why when none is known.
    func callFrames(at address: UInt64) -> Result<(table: CallFrameTable, bias: UInt64), CallFrameLookupFailure>
    /// Whether `address` lies in an image's code, or in memory the process could execute.
    func isCode(_ address: UInt64) -> Bool
}

/// Why no call-frame information is known for an address, in words for a stopped walk.
public struct CallFrameLookupFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason, in one phrase ("0x… lies in no mapped file").
    public var description: String

    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}
