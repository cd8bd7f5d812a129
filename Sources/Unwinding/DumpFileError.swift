/// Why a core file or a minidump could not be read at all (what can be read of a damaged one is read, with
/// warnings).
public struct DumpFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong with it.
    public var detail: String

    /// An error about the file at `path`.
    public init(path: String, _ detail: String) {
        self.path = path
        self.detail = detail
    }

    /// The error in one line: the file, and what is wrong.
    public var description: String { "\(path): \(detail)" }
}
