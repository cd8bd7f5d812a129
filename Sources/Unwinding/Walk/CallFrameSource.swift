import DWARF

/// Where an unwinder finds the call-frame information of the code at an address: the images of a core, a dump or a
/// process, with the binaries found for them.
package protocol CallFrameSource: Sendable {
    /// The call-frame information of the image that holds `address`, and the image's load bias (runtime address less
    /// the address its rows are kept by); `nil` with why when none is known.
    func callFrames(at address: UInt64) -> Result<(table: any CallFrameRows, bias: UInt64), CallFrameLookupFailure>
    /// Whether `address` lies in an image's code, or in memory the process could execute.
    func isCode(_ address: UInt64) -> Bool
    /// Whether `address` lies in a Swift async function's resume part (its symbol's mangled name ends in `TQ<n>_` or
    /// `TY<n>_`): above such a frame the stack is the task's chain of async contexts.
    func isSwiftAsyncResume(_ address: UInt64) -> Bool
    /// Whether the instruction just before `address` in an image's code is a call: what makes a word found by scanning
    /// the stack a return address. `false` when the code cannot be read.
    func followsCall(_ address: UInt64) -> Bool
}

extension CallFrameSource {
    /// No async functions, for sources that know no symbols.
    package func isSwiftAsyncResume(_ address: UInt64) -> Bool { false }
    /// No code to read, for sources that have none: nothing found by scanning is taken.
    package func followsCall(_ address: UInt64) -> Bool { false }
}

/// Swift's mangling of async functions' resume parts.
package enum SwiftAsyncNames {
    /// Whether `name` ends in `TY<digits>_` (an await's resume) or `TQ<digits>_` (a suspend's), as the Swift runtime's
    /// backtracer tells them.
    package static func isResume(_ name: String) -> Bool {
        var utf8 = Substring(name).utf8
        guard utf8.last == UInt8(ascii: "_") else { return false }
        utf8 = utf8.dropLast()
        while let last = utf8.last, last >= UInt8(ascii: "0"), last <= UInt8(ascii: "9") { utf8 = utf8.dropLast() }
        return utf8.hasSuffix("TY".utf8) || utf8.hasSuffix("TQ".utf8)
    }
}

private extension Substring.UTF8View {
    func hasSuffix(_ suffix: String.UTF8View) -> Bool {
        count >= suffix.count && self.suffix(suffix.count).elementsEqual(suffix)
    }
}

/// Why no call-frame information is known for an address, in words for a stopped walk.
package struct CallFrameLookupFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason, in one phrase ("0x… lies in no mapped file").
    package var description: String

    /// A failure saying `description`.
    package init(_ description: String) { self.description = description }
}
