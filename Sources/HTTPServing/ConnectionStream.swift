import BlockingIO
import Glibc

/// How a connection's wait ended without the bytes it waited for.
enum ConnectionEnd: Error {
    /// The client closed its side.
    case closedByClient
    /// Nothing came (or nothing could be sent) for the idle timeout.
    case idle
    /// The request's deadline passed.
    case deadline
    /// The server stops, and the connection was between requests.
    case stopping
    /// A system call failed.
    case failed(call: String, errno: Int32)
}

/// An accepted, non-blocking socket with the bytes received and not yet read: a request's head is read from it, then
/// its body, and what follows (the next request of a client that sends several at once) stays for the next reading.
/// Every wait is bounded by the idle timeout and, where given, a deadline, and polls the server's stop signal where
/// the connection is between requests. One thread uses it.
final class ConnectionStream {
    let descriptor: Int32
    let idleTimeout: Duration
    /// Received bytes; those before ``start`` are read.
    private(set) var buffer: [UInt8] = []
    private(set) var start = 0
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)

    init(descriptor: Int32, idleTimeout: Duration) {
        self.descriptor = descriptor
        self.idleTimeout = idleTimeout
    }

    deinit {
        scratch.deallocate()
        close(descriptor)
    }

    /// Bytes received and not yet read.
    var buffered: Int { buffer.count - start }

    /// Marks `count` received bytes read.
    func consume(_ count: Int) {
        start += count
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
    }

    /// Takes up to `count` received bytes.
    func take(upTo count: Int) -> [UInt8] {
        let piece = Array(buffer[start..<start + min(count, buffered)])
        consume(piece.count)
        return piece
    }

    /// Receives what has come (at least one byte) after the buffered bytes.
    func receive(until deadline: ContinuousClock.Instant? = nil, stopping: CancellationSignal? = nil)
        throws(ConnectionEnd)
    {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        while true {
            let count = recv(descriptor, scratch.baseAddress, scratch.count, 0)
            if count > 0 {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<count]))
                return
            }
            if count == 0 { throw .closedByClient }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(for: Int16(POLLIN), until: deadline, stopping: stopping)
            case ECONNRESET: throw .closedByClient
            default: throw .failed(call: "recv", errno: errno)
            }
        }
    }

    /// Sends all of `bytes`, waiting at most the idle timeout for the client to take each part.
    func send(_ bytes: [UInt8]) throws(ConnectionEnd) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { all in
                Glibc.send(descriptor, all.baseAddress! + sent, all.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count >= 0 {
                sent += count
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(for: Int16(POLLOUT), until: nil, stopping: nil)
            case EPIPE, ECONNRESET: throw .closedByClient
            default: throw .failed(call: "send", errno: errno)
            }
        }
    }

    /// After a response to a request whose body was not read: the sending side is shut, and what the client still
    /// sends is read and dropped for at most `limit`, so that the close does not reset the connection before the
    /// client has read the response (the kernel resets a connection closed with unread bytes).
    func lingerAfterResponse(limit: Duration) {
        shutdown(descriptor, Int32(SHUT_WR))
        let end = ContinuousClock.now + limit
        while true {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            do { try receive(until: end) } catch { return }
        }
    }

    private func wait(for events: Int16, until deadline: ContinuousClock.Instant?, stopping: CancellationSignal?)
        throws(ConnectionEnd)
    {
        let idleEnd = ContinuousClock.now + idleTimeout
        let end = deadline.map { min($0, idleEnd) } ?? idleEnd
        switch DescriptorWait.until(descriptor, events: events, moment: end, cancellation: stopping) {
        case .ready: return
        case .cancelled: throw .stopping
        case .timedOut: throw deadline.map { $0 <= idleEnd } == true ? .deadline : .idle
        case .failed(let number): throw .failed(call: "poll", errno: number)
        }
    }
}
