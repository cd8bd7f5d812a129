import PostmortemCore

/// The dynamic linker's cache, `/etc/ld.so.cache` as `ldconfig` writes it: which file each library name (soname)
/// loads on this machine.
package struct LinkerCache: Sendable {
    /// Paths by library name, in the cache's order (the first entry of a name is the one the linker takes).
    private var paths: [String: [String]] = [:]

    /// The cache at `path`; empty when it is missing or not in a format this version reads.
    package init(path: String = "/etc/ld.so.cache") {
        guard let bytes = try? FileSystem.read(path, maximumSize: 16 << 20) else { return }
        paths = Self.entries(in: bytes)
    }

    /// The files the cache gives for `name` (`libc.so.6`), preferred first.
    package func paths(of name: String) -> [String] { paths[name] ?? [] }

    /// The entries of the "new" format (glibc 2.32 and later write it alone; older ones after the old format): a
    /// 48-byte header (`glibc-ld.so.cache1.1`, entry count, string table size, flags), then 24-byte entries whose name
    /// and path are offsets from the start of that header.
    static func entries(in bytes: [UInt8]) -> [String: [String]] {
        let magic = Array("glibc-ld.so.cache1.1".utf8)
        guard let start = firstIndex(of: magic, in: bytes) else { return [:] }
        func word(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        func string(_ at: Int) -> String? {
            guard at >= 0, at < bytes.count, let end = bytes[at...].firstIndex(of: 0) else { return nil }
            return String(decoding: bytes[at..<end], as: UTF8.self)
        }
        guard let count = word(start + 20) else { return [:] }
        var paths: [String: [String]] = [:]
        for entry in 0..<min(count, (bytes.count - start - 48) / 24) {
            let at = start + 48 + entry * 24
            guard let key = word(at + 4), let value = word(at + 8),
                let name = string(start + key), let path = string(start + value)
            else { continue }
            paths[name, default: []].append(path)
        }
        return paths
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<start + needle.count].elementsEqual(needle) { return start }
        }
        return nil
    }
}
