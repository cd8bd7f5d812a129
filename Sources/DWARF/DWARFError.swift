/// Why DWARF could not be read, with the file and the place in it.
public struct DWARFError: Error, Hashable, Sendable {
    /// What kind of failure it is.
    public enum Code: Hashable, Sendable {
        /// The file has no DWARF sections at all.
        case noDebugInfo
        /// libdwarf could not open the file as an object file.
        case cannotOpen
        /// A unit, DIE or line table is malformed.
        case malformed
    }

    /// What kind of failure it is.
    public var code: Code
    /// The file whose DWARF could not be read.
    public var path: String
    /// What libdwarf said, and where (a unit or DIE offset).
    public var detail: String

    /// An error of `code` about the DWARF of `path`, saying `detail`.
    public init(_ code: Code, path: String, detail: String) {
        self.code = code
        self.path = path
        self.detail = detail
    }
}

extension DWARFError: CustomStringConvertible {
    /// The error in one line: the file, and what is wrong with its DWARF.
    public var description: String {
        switch code {
        case .noDebugInfo: "\(path): no DWARF debug information"
        case .cannotOpen: "\(path): cannot read DWARF: \(detail)"
        case .malformed: "\(path): malformed DWARF: \(detail)"
        }
    }
}
