/// What an ``HTTPServer`` listens on and the bounds it keeps.
package struct HTTPServerSettings: Sendable {
    /// The address listened on: a numeric IPv4 or IPv6 address, or a name resolved to one.
    package var host: String
    /// The port; 0 for one the system picks (``HTTPServer/port`` says which).
    package var port: Int
    /// How long a connection may send nothing, between requests or within one, and how long a client may leave a
    /// response unread, before its connection is closed: a client that opens connections and sends nothing cannot hold
    /// them.
    package var idleTimeout: Duration
    /// The longest a stop waits for the requests in flight before it returns with them unfinished.
    package var shutdownLimit: Duration
    /// Connections served at once (each has a thread); one accepted past it is answered 503 and closed.
    package var maximumConnections = 1024
    /// The largest request head (request line and header fields); a larger one is answered 431.
    package var maximumHeadBytes = 64 << 10
    /// The `Server` field of every response.
    package var serverName: String

    package init(host: String, port: Int, idleTimeout: Duration, shutdownLimit: Duration, serverName: String) {
        self.host = host
        self.port = port
        self.idleTimeout = idleTimeout
        self.shutdownLimit = shutdownLimit
        self.serverName = serverName
    }
}
