import PostmortemCore

/// Writes the command's output and its one-line diagnostics.
enum Output {
    static func line(_ text: String) {
        print(text)
    }

    /// Writes `lines` to standard output in one piece, after what `print` holds (a batch of answers costs one
    /// write instead of a `print` a line).
    static func lines(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for line in lines {
            bytes += line.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        flush()
        FileSystem.Writer.standardOutput.write(bytes)
    }

    /// Writes `text` (whole lines, each with its line feed) to standard output, after what `print` holds.
    static func text(_ text: String) {
        bytes(Array(text.utf8)[...])
    }

    /// Writes `bytes` (whole lines) to standard output, after what `print` holds.
    static func bytes(_ bytes: ArraySlice<UInt8>) {
        guard !bytes.isEmpty else { return }
        flush()
        FileSystem.Writer.standardOutput.write(bytes)
    }

    /// `postmortem: MESSAGE` on standard error, after flushing what standard output holds so far.
    static func error(_ message: String) {
        errors([message])
    }

    /// `postmortem: MESSAGE` on standard error for each of `messages`, in one write, after flushing what standard
    /// output holds so far.
    static func errors(_ messages: [String]) {
        guard !messages.isEmpty else { return }
        flush()
        var bytes: [UInt8] = []
        for message in messages {
            bytes += "postmortem: ".utf8
            bytes += message.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        FileSystem.Writer.standardError.write(bytes)
    }

    /// Flushes what `print` has buffered for standard output.
    static func flush() {
        FileSystem.flushStandardOutput()
    }
}
