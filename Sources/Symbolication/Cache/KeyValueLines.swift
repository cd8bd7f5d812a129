/// Lines of `key=value` text, as the index cache writes its place records and its files' metadata: read over their
/// bytes, since every run reads a few of them before its first answer (splitting them as `String`s cost more than
/// the rest of opening a cached index).
enum KeyValueLines {
    /// Calls `body` with each line's key and value (`nil` for a line without `=`), in order; a `false` from `body`
    /// stops the reading.
    static func forEach(in bytes: [UInt8], _ body: (_ key: String, _ value: String?) -> Bool) {
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                guard body(String(decoding: line, as: UTF8.self), nil) else { return }
                continue
            }
            let key = String(decoding: line[..<equals], as: UTF8.self)
            guard body(key, String(decoding: line[(equals + 1)...], as: UTF8.self)) else { return }
        }
    }

    /// The numbers of a value of space-separated decimal numbers.
    static func numbers(_ value: String) -> [Int64] {
        value.utf8.split(separator: UInt8(ascii: " ")).compactMap { Int64(String(decoding: $0, as: UTF8.self)) }
    }
}
