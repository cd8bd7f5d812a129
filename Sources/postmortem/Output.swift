import ObjectFiles

/// Writes the command's output and its one-line diagnostics.
enum Output {
    static func line(_ text: String) {
        print(text)
    }

    /// `postmortem: MESSAGE` on standard error, after flushing what standard output holds so far.
    static func error(_ message: String) {
        flush()
        FileSystem.Writer.standardError.write(Array("postmortem: \(message)\n".utf8))
    }

    /// Flushes what `print` has buffered for standard output.
    static func flush() {
        FileSystem.flushStandardOutput()
    }
}
