import PostmortemCore

/// The `-d` folders that cannot be searched, said on standard error before a command looks for anything: a mistyped
/// folder is otherwise named only when a frame stays unresolved (in the reason's "looked below …"), and a run that finds
/// its binaries elsewhere would use none of the debug files the user meant to give.
enum DebugPathCheck {
    /// One line for each of `paths` that does not exist or is not a folder; the run goes on with the others.
    static func reportUnsearchable(_ paths: [String]) {
        Output.errors(paths.compactMap { path in problem(with: path).map { "-d \(path): \($0)" } })
    }

    /// What keeps `path` from being searched, or `nil` when it is a folder.
    static func problem(with path: String) -> String? {
        if FileSystem.isDirectory(path) { return nil }
        return FileSystem.exists(path) ? "not a folder (give the folder that holds it)" : "no such folder"
    }
}
