import Foundation

/// Loopback sockets for tests' servers, bound to a port the system picks: no race with another program for it.
public enum LoopbackPort {
    /// A socket listening on a free loopback port, and the port.
    public static func listening() throws -> (descriptor: Int32, port: UInt16) {
        try bound(listening: true)
    }

    /// A socket bound to a free loopback port that does not listen, and the port: connections to it are refused for as
    /// long as the socket is open, and nothing else can take the port meanwhile.
    public static func refusing() throws -> (descriptor: Int32, port: UInt16) {
        try bound(listening: false)
    }

    /// A loopback port free now (for a server started next, which cannot be given port 0).
    public static func free() throws -> UInt16 {
        let (descriptor, port) = try listening()
        close(descriptor)
        return port
    }

    private static func bound(listening: Bool) throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SetupFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, 64) == 0)
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw SetupFailure("cannot bind on loopback: \(String(cString: strerror(errno)))")
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }
}
