import Glibc
import PostmortemCore

/// Replaces this process with a program installed beside its executable (`postmortem serve` becomes
/// `postmortem-server`): same process id, signals and standard streams, so that a supervisor that started the one
/// stops the other.
package enum ProgramHandover {
    /// The path of `program` in the folder of this process's executable, when it is there.
    package static func sibling(named program: String) -> String? {
        let path = FilePath.join(FilePath.directory(of: FileSystem.realPath("/proc/self/exe")), program)
        return FileSystem.isRegularFile(path) ? path : nil
    }

    /// Runs `path` with `arguments` (after the program name) in place of this process; returns only when it could not
    /// be started, with why.
    package static func replace(with path: String, arguments: [String]) -> String {
        FileSystem.flushStandardOutput()
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        execv(path, argv)
        return FileSystem.lastSystemError
    }
}
