/// One frame of the answer for an address: a function and where in its source the address lies. Frames come
/// innermost first; all but the last are inlined into the one after them. The same value fills the frames of crash
/// reports (a crash frame's inline chain).
public struct SymbolicatedFrame: Hashable, Sendable {
    public var function: String?
    public var linkageName: String?
    public var file: String?
    public var line: Int
    public var column: Int
    public var isInlined: Bool
    /// A compiler-made Swift thunk (reabstraction, partial application, protocol witness), as the runtime's backtracer
    /// tags it `[thunk]`.
    public var isThunk: Bool
    /// The source lines around ``line``, when they were asked for and found (`--source-context`).
    public var source: SourceExcerpt?

    public init(function: String?, linkageName: String?, file: String?, line: Int, column: Int, isInlined: Bool, isThunk: Bool = false) {
        self.function = function
        self.linkageName = linkageName
        self.file = file
        self.line = line
        self.column = column
        self.isInlined = isInlined
        self.isThunk = isThunk
    }
}
