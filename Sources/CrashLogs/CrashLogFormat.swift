/// The crash-log and trace formats Postmortem reads; the raw values are the JSON `format` identifiers.
public enum CrashLogFormat: String, Hashable, Sendable, CaseIterable {
    case appleCrash = "apple-crash"
    case appleIPS = "apple-ips"
    case nsException = "nsexception"
    case swiftBacktrace = "swift-backtrace"
    case swiftFatal = "swift-fatal"
    case glibcBacktrace = "glibc-backtrace"
    case sanitizer = "sanitizer"
    case androidTombstone = "android-tombstone"
    case breakpadStackwalk = "breakpad-stackwalk"
    case gdbBacktrace = "gdb-bt"
    case lldbBacktrace = "lldb-bt"
    case systemdCoredump = "systemd-coredump"
    /// A report Postmortem wrote of an ELF core file it unwound (the `Unwinding` module makes it from the core).
    case elfCore = "elf-core"
    /// A report Postmortem wrote of a live process's threads it stopped and unwound (`postmortem stack PID`).
    case process = "process"
    /// A report Postmortem wrote of a minidump it read and unwound (Crashpad's, Breakpad's, sentry-native's).
    case minidump = "minidump"
}
