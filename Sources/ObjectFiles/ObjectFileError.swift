public import PostmortemCore

/// Why an object file could not be read, with the path it concerns.
public struct ObjectFileError: Error, Hashable, Sendable {
    /// What kind of failure it is.
    public enum Code: Hashable, Sendable {
        /// The path does not exist or cannot be opened.
        case cannotOpen
        /// The path names a directory where a file was expected.
        case isDirectory
        /// The file is of no format this tool reads (a text file, say).
        case unknownFormat
        /// The file claims a format but its headers are cut short or inconsistent.
        case malformed
        /// A universal file has no slice for the architecture asked for.
        case architectureNotFound
        /// A universal file has several slices and none was chosen.
        case ambiguousArchitecture
    }

    /// What kind of failure it is.
    public var code: Code
    /// The file it concerns.
    public var path: String
    /// What exactly went wrong, in words (an `errno` text, a libelf message, a header field).
    public var detail: String

    /// An error of `code` about `path`, saying `detail`.
    public init(_ code: Code, path: String, detail: String) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    /// What the user can do about it, when something can be done.
    public var remedy: Remedy? { code == .ambiguousArchitecture ? .chooseSlice : nil }
}

extension ObjectFileError: CustomStringConvertible {
    /// The error in one line: the path, and what is wrong with it.
    public var description: String {
        switch code {
        case .cannotOpen: "\(path): cannot open: \(detail)"
        case .isDirectory: "\(path): is a directory, not a binary or debug file"
        case .unknownFormat: "\(path): not an object file (\(detail))"
        case .malformed: "\(path): malformed object file: \(detail)"
        case .architectureNotFound, .ambiguousArchitecture: "\(path) \(detail)"
        }
    }
}

extension ObjectFileError {
    /// `path` opened for reading.
    /// - Throws: a `.cannotOpen` error with the system's words.
    static func opening(_ path: String) throws(ObjectFileError) -> FileSystem.OpenFile {
        do { return try FileSystem.OpenFile(path: path) } catch {
            throw ObjectFileError(.cannotOpen, path: path, detail: error.detail)
        }
    }
}
