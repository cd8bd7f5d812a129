/// Paths as strings, taken apart and joined the one way every module does it.
public enum FilePath {
    /// The last component: `libc.so.6` for `/lib/x86_64-linux-gnu/libc.so.6`; the path itself when it has no slash.
    public static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The directory part of `path`: `.` for a bare name, `/` for a name at the root.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `directory` and `name` with one `/` between them (gdb's `path_join`); `name` alone when there is no directory.
    public static func join(_ directory: String, _ name: String) -> String {
        guard !directory.isEmpty else { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
