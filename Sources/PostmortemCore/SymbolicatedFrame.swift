/// One frame of the answer for an address: a function and where in its source the address lies. Frames come
/// innermost first; all but the last are inlined into the one after them. The same value fills the frames of crash
/// reports (a crash frame's inline chain).
public struct SymbolicatedFrame: Hashable, Sendable {
    /// The name shown (demangled unless asked otherwise); `nil` when nothing names the address.
    public var function: String?
    /// The name as the binary stores it (mangled for Swift and C++).
    public var linkageName: String?
    /// The source file, as the debug information names it.
    public var file: String?
    /// The source line (0 when none is known).
    public var line: Int
    /// The source column (0 when none is known).
    public var column: Int
    /// Whether this frame was inlined into the one after it.
    public var isInlined: Bool
    /// A compiler-made Swift thunk (reabstraction, partial application, protocol witness), as the runtime's backtracer
    /// tags it `[thunk]`.
    public var isThunk: Bool
    /// The source lines around ``line``, when they were asked for and found (`--source-context`).
    public var source: SourceExcerpt?

    /// A frame of `function` at `file`:`line`:`column`.
    public init(
        function: String?, linkageName: String?, file: String?, line: Int, column: Int, isInlined: Bool,
        isThunk: Bool = false
    ) {
        self.function = function
        self.linkageName = linkageName
        self.file = file
        self.line = line
        self.column = column
        self.isInlined = isInlined
        self.isThunk = isThunk
    }
}
