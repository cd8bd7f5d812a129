import Glibc
import PostmortemCore

/// The server's log: one line per event on standard error, with the time (UTC) and how much it matters.
struct ServerLog: Sendable {
    enum Level: String {
        case info, notice, warning, error
    }

    func info(_ message: String) { write(.info, message) }
    func notice(_ message: String) { write(.notice, message) }
    func warning(_ message: String) { write(.warning, message) }
    func error(_ message: String) { write(.error, message) }

    private func write(_ level: Level, _ message: String) {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var stamp = [CChar](repeating: 0, count: 32)
        let length = strftime(&stamp, stamp.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        let time = String(decoding: stamp[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let text = message.hasSuffix("\n") ? String(message.dropLast()) : message
        FileSystem.Writer.standardError.write(Array("\(time) \(level.rawValue) postmortem-server: \(text)\n".utf8))
    }
}
