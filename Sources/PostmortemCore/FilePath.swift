/// Paths as strings, taken apart and joined the one way every module does it.
package enum FilePath {
    /// The last component: `libc.so.6` for `/lib/x86_64-linux-gnu/libc.so.6`; the path itself when it has no slash.
    /// Trailing slashes are no component (`App.dSYM` for `App.dSYM/`, as a shell completes a folder), as `basename`.
    package static func fileName(of path: String) -> String {
        guard !path.isEmpty else { return path }
        var end = path.endIndex
        while end > path.index(after: path.startIndex), path[path.index(before: end)] == "/" {
            end = path.index(before: end)
        }
        let name = path[..<end]
        guard let slash = name.lastIndex(of: "/"), name != "/" else { return String(name) }
        return String(name[name.index(after: slash)...])
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
