import PostmortemCore

/// The JSON object a JSON-lines logger writes each line of output as — docker's json-file driver
/// (`{"log":"…\n","stream":"stderr","time":"…"}`), `journalctl -o json` (`"MESSAGE"`), a log shipper's export
/// (`"message"`, `"msg"`) — split around the message: the bytes before and after it, kept as read, so that a
/// symbolicated line goes back into a copy of its object with every other field unchanged.
public struct JSONEnvelope: Hashable, Sendable {
    /// The object up to and including the message's opening quote.
    public var head: String
    /// The message as written, escapes and all, less a line ending the logger kept inside it.
    public var escapedMessage: String
    /// From that line ending (`\n`, as written) or the closing quote to the end of the object.
    public var tail: String

    /// An envelope of these three parts, as read.
    public init(head: String, escapedMessage: String, tail: String) {
        self.head = head
        self.escapedMessage = escapedMessage
        self.tail = tail
    }

    /// `text` as the inside of a JSON string.
    static func escaped(_ text: String) -> String {
        String(JSONText.quote(text).dropFirst().dropLast())
    }
}
