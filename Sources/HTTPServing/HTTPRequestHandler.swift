/// What a server answers: requests, on the thread of the connection that carried each (it may block), and the
/// requests that could not be read as HTTP.
package protocol HTTPRequestHandler: Sendable {
    /// The response to `request`. A body left unread is not read later: the connection is closed after the response.
    func answer(_ request: ServerRequest) -> ServerResponse
    /// The response to a request the server refused before any handler saw it: an unreadable head (400), one not
    /// whole within the idle timeout (408), one too large (431), a transfer coding not served (501), another HTTP version (505), or too many connections (503).
    func refuse(_ rejection: RejectedRequest) -> ServerResponse
}
