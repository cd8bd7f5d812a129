import LogFraming

/// A parsed crash log: its stacks and images, and its text, so it can be printed back with symbols in place.
public struct CrashReport: Sendable {
    /// What went wrong, as the log says it.
    public struct Exception: Hashable, Sendable {
        /// What the log calls the crash: `EXC_BAD_ACCESS (SIGSEGV)`, `NSRangeException`, `heap-use-after-free`.
        public var type: String?
        /// What the log says about it: the reason, the faulting address, the first line of a message.
        public var message: String?

        /// An exception of `type`, with `message`.
        public init(type: String?, message: String?) {
            self.type = type
            self.message = message
        }
    }

    /// The format the log was read as, which decides how it is printed back.
    public var format: CrashLogFormat
    /// What kind of crash the log states, if it states one.
    public var exception: Exception?
    /// The stacks, in the order the log gives them.
    public var threads: [CrashThread]
    /// The images the frames are in (frames refer to them by index), with load addresses and ids when the log gives them.
    public var images: [CrashImage]
    /// The log's lines, each with its line ending, exactly as read.
    public var lines: [LogLine] {
        didSet { bytesAsRead = nil }
    }
    /// The bytes ``lines`` were split from, when the report is every line of a log (or a piece of one) that no logger
    /// framed: the report printed back unchanged is these bytes, and joining its lines again is spared. Cleared when
    /// ``lines`` change.
    package var bytesAsRead: [UInt8]?
    /// What the parser noticed about the log (a truncated section, an odd line), one line each.
    public var warnings: [String]

    /// A report of `format` read from `lines`.
    package init(
        format: CrashLogFormat, exception: Exception?, threads: [CrashThread], images: [CrashImage],
        lines: [LogLine], warnings: [String] = []
    ) {
        self.format = format
        self.exception = exception
        self.threads = threads
        self.images = images
        self.lines = lines
        self.warnings = warnings
    }

    /// The index of the image named `name`, added when the log has not listed it yet.
    package mutating func imageIndex(named name: String, path: String?) -> Int {
        if let index = images.firstIndex(where: { $0.name == name && $0.path == path }) { return index }
        images.append(CrashImage(name: name, path: path))
        return images.count - 1
    }
}
