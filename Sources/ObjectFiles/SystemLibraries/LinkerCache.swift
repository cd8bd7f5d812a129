import PostmortemCore

/// The dynamic linker's cache, `/etc/ld.so.cache` as `ldconfig` writes it: which file each library name (soname)
/// loads on this machine. Kept as its bytes and searched for the names asked (a run asks for one or two of its
/// hundreds of entries).
package struct LinkerCache: Sendable {
    private let bytes: [UInt8]
    /// Where the header of the format read starts, and how many entries follow it.
    private let start: Int
    private let count: Int

    /// The cache at `path`; empty when it is missing or not in a format this version reads.
    package init(path: String = "/etc/ld.so.cache") {
        self.init(bytes: (try? FileSystem.read(path, maximumSize: 16 << 20)) ?? [])
    }

    /// The "new" format (glibc 2.32 and later write it alone; older ones after the old format): a 48-byte header
    /// (`glibc-ld.so.cache1.1`, entry count, string table size, flags), then 24-byte entries whose name and path are
    /// offsets from the start of that header.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        let magic = Array("glibc-ld.so.cache1.1".utf8)
        guard let start = Self.firstIndex(of: magic, in: bytes) else {
            (self.start, count) = (0, 0)
            return
        }
        self.start = start
        count = max(0, min(Self.word(bytes, start + 20) ?? 0, (bytes.count - start - 48) / 24))
    }

    /// The files the cache gives for `name` (`libc.so.6`), preferred first.
    package func paths(of name: String) -> [String] {
        let wanted = Array(name.utf8)
        var paths: [String] = []
        for entry in 0..<count {
            let at = start + 48 + entry * 24
            guard let key = Self.word(bytes, at + 4), names(start + key, wanted),
                let value = Self.word(bytes, at + 8), let path = string(start + value)
            else { continue }
            paths.append(path)
        }
        return paths
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }

    /// Whether the NUL-terminated string at `at` is `wanted`.
    private func names(_ at: Int, _ wanted: [UInt8]) -> Bool {
        guard at >= 0, at + wanted.count < bytes.count, bytes[at + wanted.count] == 0 else { return false }
        return bytes[at..<at + wanted.count].elementsEqual(wanted)
    }

    private func string(_ at: Int) -> String? {
        guard at >= 0, at < bytes.count, let end = bytes[at...].firstIndex(of: 0) else { return nil }
        return String(decoding: bytes[at..<end], as: UTF8.self)
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<start + needle.count].elementsEqual(needle) { return start }
        }
        return nil
    }
}
