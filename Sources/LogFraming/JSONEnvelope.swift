import PostmortemCore

/// The JSON object a JSON-lines logger writes output as — docker's json-file driver
/// (`{"log":"…\n","stream":"stderr","time":"…"}`), `journalctl -o json` (`"MESSAGE"`), a log shipper's export
/// (`"message"`, `"msg"`) — split around the message: the bytes before and after it, kept as read, so that a
/// symbolicated line goes back into its object with every other field unchanged. A message of several lines (a
/// shipper that joins a stack trace into one record) is read as one line per part, each knowing its place.
package struct JSONEnvelope: Hashable, Sendable {
    /// The object up to and including the message's opening quote.
    package var head: String
    /// This line's part of the message as written, escapes and all, less a line break that ends it.
    package var escapedMessage: String
    /// From the line ending a logger kept at the end of the message (docker's `\n`, as written) or the closing quote
    /// to the end of the object.
    package var tail: String
    /// Whether the line is the first part of its object's message (it writes ``head``).
    package var isFirstPart = true
    /// Whether the line is the last part of its object's message (it writes ``tail``; the others end with `\n`).
    package var isLastPart = true

    /// An envelope of a message's one part, its object's bytes around it as read.
    package init(head: String, escapedMessage: String, tail: String, isFirstPart: Bool = true, isLastPart: Bool = true)
    {
        self.head = head
        self.escapedMessage = escapedMessage
        self.tail = tail
        self.isFirstPart = isFirstPart
        self.isLastPart = isLastPart
    }

    /// `text` as the inside of a JSON string.
    static func escaped(_ text: String) -> String {
        String(JSONText.quote(text).dropFirst().dropLast())
    }

    /// A line break inside a JSON string, as written there.
    static let escapedLineBreak: [UInt8] = Array(#"\n"#.utf8)
}
