import PostmortemCore

/// One line of `/proc/PID/maps`: a mapping, its permissions and the file behind it.
struct ProcessMapping: Hashable, Sendable {
    var start: UInt64
    var end: UInt64
    var isExecutable: Bool
    var isReadable: Bool
    var fileOffset: UInt64
    /// The file, `[stack]`, `[vdso]`, or empty for anonymous memory.
    var path: String

    /// The mappings of `/proc/PID/maps`' text: `start-end perms offset dev inode path`.
    static func parse(_ text: String) -> [ProcessMapping] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5 else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt64(bounds[0], radix: 16), let end = UInt64(bounds[1], radix: 16),
                let offset = UInt64(fields[2], radix: 16)
            else { return nil }
            let permissions = Array(fields[1].utf8)
            let path = fields.count == 6 ? String(fields[5].drop { $0 == " " }) : ""
            return ProcessMapping(
                start: start, end: end, isExecutable: permissions.count > 2 && permissions[2] == UInt8(ascii: "x"),
                isReadable: permissions.first == UInt8(ascii: "r"), fileOffset: offset, path: path)
        }
    }

    /// As a core's `NT_FILE` would list it.
    var fileMapping: CoreMapping {
        CoreMapping(start: start, end: end, fileOffset: fileOffset, path: path)
    }
}
