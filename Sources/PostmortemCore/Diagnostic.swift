/// Something worth telling the user that is not an answer: a debug file rejected, a damaged index file, DWARF
/// that cannot be read. Made where it happens, delivered to the ``DiagnosticSink`` the caller passed in.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The file or image it is about (a path, an image's name), when it is about one.
    public var subject: String?
    /// What happened and why, and what was done instead.
    public var message: String
    /// What the user can do about it, when something can be done (the front end words it).
    public var remedy: Remedy?

    /// A diagnostic about `subject` (when about one), saying `message`, with `remedy` when something can be done.
    public init(subject: String?, message: String, remedy: Remedy? = nil) {
        self.subject = subject
        self.message = message
        self.remedy = remedy
    }

    /// One line: `subject: message`.
    public var description: String {
        (subject.map { $0 + ": " } ?? "") + message
    }
}
