/// Something worth telling the user that is not an answer: a debug file rejected, a damaged index file, DWARF
/// that cannot be read. Made where it happens, delivered to the ``DiagnosticSink`` the caller passed in.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The file or image it is about (a path, an image's name), when it is about one.
    public var subject: String?
    /// What happened and why, and what was done instead.
    public var message: String
    /// What the user can try, when something can be tried.
    public var advice: String?

    /// A diagnostic about `subject` (when about one), saying `message`, with `advice` when something can be tried.
    public init(subject: String?, message: String, advice: String? = nil) {
        self.subject = subject
        self.message = message
        self.advice = advice
    }

    /// One line: `subject: message; advice`.
    public var description: String {
        (subject.map { $0 + ": " } ?? "") + message + (advice.map { "; " + $0 } ?? "")
    }
}
