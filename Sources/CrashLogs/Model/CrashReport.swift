/// A parsed crash log: its stacks and images, and its text, so it can be printed back with symbols in place.
public struct CrashReport: Sendable {
    /// What went wrong, as the log says it.
    public struct Exception: Hashable, Sendable {
        public var type: String?
        public var message: String?

        public init(type: String?, message: String?) {
            self.type = type
            self.message = message
        }
    }

    public var format: CrashLogFormat
    public var exception: Exception?
    public var threads: [CrashThread]
    public var images: [CrashImage]
    /// The log's lines, each with its line ending, exactly as read.
    public var lines: [LogLine]
    /// What the parser noticed about the log (a truncated section, an odd line), one line each.
    public var warnings: [String]

    public init(format: CrashLogFormat, exception: Exception?, threads: [CrashThread], images: [CrashImage],
                lines: [LogLine], warnings: [String] = []) {
        self.format = format
        self.exception = exception
        self.threads = threads
        self.images = images
        self.lines = lines
        self.warnings = warnings
    }

    /// The index of the image named `name`, added when the log has not listed it yet.
    public mutating func imageIndex(named name: String, path: String?) -> Int {
        if let index = images.firstIndex(where: { $0.name == name && $0.path == path }) { return index }
        images.append(CrashImage(name: name, path: path))
        return images.count - 1
    }
}
