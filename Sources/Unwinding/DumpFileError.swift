import ObjectFiles

/// Why a core file or a minidump could not be read at all (what can be read of a damaged one is read, with
/// warnings).
package struct DumpFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// What is wrong with it.
    package var detail: String

    /// An error about the file at `path`.
    package init(path: String, _ detail: String) {
        self.path = path
        self.detail = detail
    }

    /// The error in one line: the file, and what is wrong.
    package var description: String { "\(path): \(detail)" }

    /// The file at `path`, mapped; what keeps it from being mapped as an error about it.
    static func mapping(_ path: String) throws(DumpFileError) -> ImmutableBytes {
        do { return try ImmutableBytes(mapping: path) } catch {
            // The error names the path itself; this one says it once.
            let description = error.description
            throw DumpFileError(
                path: path,
                description.hasPrefix(path + ": ") ? String(description.dropFirst(path.count + 2)) : description)
        }
    }
}
