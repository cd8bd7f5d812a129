/// One frame of the answer for an address: a function and where in its source the address lies.
/// Frames come innermost first; all but the last are inlined into the one after them.
public struct SymbolicatedFrame: Hashable, Sendable {
    /// The name to show: demangled, unless demangling was turned off.
    public var function: String?
    /// The name as the object file stores it (mangled for C++ and Swift; the plain name in C).
    public var linkageName: String?
    /// The source file: the compile directory joined with the line table's entry.
    public var file: String?
    /// The source line; 0 when the code belongs to no line (compiler-generated code).
    public var line: Int
    /// The column; 0 when unknown.
    public var column: Int
    /// True when this frame's code was inlined into the next frame.
    public var isInlined: Bool

    public init(function: String?, linkageName: String?, file: String?, line: Int, column: Int, isInlined: Bool) {
        self.function = function
        self.linkageName = linkageName
        self.file = file
        self.line = line
        self.column = column
        self.isInlined = isInlined
    }
}
