public import ObjectFiles
public import DWARF

/// Why an image could not be prepared for symbolication.
public enum SymbolicationError: Error, Hashable, Sendable, CustomStringConvertible {
    case objectFile(ObjectFileError)
    case dwarf(DWARFError)

    /// The error in one line: the path it concerns and what is wrong.
    public var description: String {
        switch self {
        case .objectFile(let error): error.description
        case .dwarf(let error): error.description
        }
    }
}
