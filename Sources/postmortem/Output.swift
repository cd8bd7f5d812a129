import Glibc

/// Writes the command's output and its one-line diagnostics.
enum Output {
    static func line(_ text: String) {
        print(text)
    }

    /// `postmortem: MESSAGE` on standard error, after flushing what standard output holds so far.
    static func error(_ message: String) {
        flush()
        let text = "postmortem: \(message)\n"
        _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }

    /// Flushes every output stream (standard output included).
    static func flush() {
        fflush(nil)
    }
}
