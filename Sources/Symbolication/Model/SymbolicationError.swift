public import DWARF
public import ObjectFiles
public import PostmortemCore

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

    /// What the user can do about it, when something can be done.
    public var remedy: Remedy? {
        if case .objectFile(let error) = self { return error.remedy }
        return nil
    }
}
