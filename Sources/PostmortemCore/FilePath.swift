/// Paths as strings, taken apart and joined the one way every module does it.
package enum FilePath {
    /// The last component: `libc.so.6` for `/lib/x86_64-linux-gnu/libc.so.6`; the path itself when it has no slash.
    /// Trailing slashes are no component (`App.dSYM` for `App.dSYM/`, as a shell completes a folder), as `basename`.
    package static func fileName(of path: String) -> String {
        // Over the bytes (a `/` is never part of another character's): asked of every image of every report.
        let utf8 = path.utf8, bytes = utf8.span
        let slash = UInt8(ascii: "/")
        var end = bytes.count
        while end > 1, bytes[end - 1] == slash { end -= 1 }
        var start = end
        while start > 0, bytes[start - 1] != slash { start -= 1 }
        // No slash, or the root alone: the name is what is left.
        if start == 0 || end == 1 { start = 0 }
        if start == 0, end == bytes.count { return path }
        let lower = utf8.index(utf8.startIndex, offsetBy: start)
        return String(Substring(utf8[lower..<utf8.index(lower, offsetBy: end - start)]))
    }

    /// The directory part of `path`: `.` for a bare name, `/` for a name at the root.
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `directory` and `name` with one `/` between them (gdb's `path_join`); `name` alone when there is no directory.
    package static func join(_ directory: String, _ name: String) -> String {
        guard !directory.isEmpty else { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
