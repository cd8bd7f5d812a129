import Glibc
import PostmortemCore

/// Starts this program again, detached: in a session of its own, its standard input, output and error on
/// `/dev/null`, not waited for. For work a run leaves behind (writing an index file) that must neither delay the
/// run's exit nor hold the pipes its caller reads until their end.
package enum DetachedProcess {
    /// Starts this executable with `arguments` (after the program name); false when it could not be started.
    @discardableResult
    package static func spawnSelf(arguments: [String]) -> Bool {
        let executable = FileSystem.realPath("/proc/self/exe")
        guard FileSystem.isRegularFile(executable) else { return false }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        guard posix_spawn_file_actions_init(&actions) == 0 else { return false }
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard posix_spawnattr_init(&attributes) == 0 else { return false }
        defer { posix_spawnattr_destroy(&attributes) }
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        // A session of its own: the terminal's Ctrl-C, meant for the run that started it, does not reach it.
        // glibc's POSIX_SPAWN_SETSID (0x80), which Swift's Glibc module does not import (it is a _GNU_SOURCE name).
        posix_spawnattr_setflags(&attributes, 0x80)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        guard posix_spawn(&child, executable, &actions, &attributes, argv, environ) == 0 else { return false }
        // Not waited for: a child of a process that has exited is adopted and reaped by init.
        return true
    }

    /// Whether a process with this id is running (a temporary file's writer, say).
    package static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// This process's id.
    package static var currentID: Int32 { getpid() }
}
