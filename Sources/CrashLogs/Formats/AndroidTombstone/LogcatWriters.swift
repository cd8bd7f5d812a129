import LogFraming

/// Which process wrote each line of a logcat capture, so that a tombstone interleaved with other processes' lines is
/// read from its writer's lines alone (debuggerd's `DEBUG` lines; another process may be logging a stack of its own).
///
/// Read from logcat's own marks: the pid column of `threadtime` (`11-25 10:00:01.123  1234  1240 F DEBUG   : `, with or
/// without a year), the `F/DEBUG   ( 1234): ` of `brief`, and the `--------- DEBUG (1234):` headers some tools put
/// before each run of one writer's lines. A line with none of them has no known writer.
enum LogcatWriters {
    /// The writer (a pid) of each line, nil where the line does not say.
    static func writers(of lines: [LogLine]) -> [Int?] {
        var writers: [Int?] = []
        writers.reserveCapacity(lines.count)
        var block: Int?
        for index in lines.indices {
            // Most lines of a tombstone are none of logcat's: their first byte says so before their text is read (or
            // the line copied).
            if !mayStartMark(lines[index].firstByte), !lines[index].hasPrefix {
                writers.append(block)
                continue
            }
            let line = lines[index]
            let whole = line.prefix.isEmpty ? line.text : line.prefix + line.text
            if whole.startsWithBytes("--------- ") {
                block = blockHeader(whole)
                writers.append(block)
                continue
            }
            writers.append(threadtime(whole) ?? brief(whole) ?? block)
        }
        return writers
    }

    /// Whether a line starting with `byte` may be one of logcat's marks: a header's `-`, a date's digit, a priority
    /// letter.
    static func mayStartMark(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || isLevel(byte)
    }

    /// `--------- DEBUG (1234):` → 1234; `--------- beginning of crash` → nil (no writer).
    static func blockHeader(_ text: String) -> Int? {
        guard text.hasSuffix("):"), let open = text.lastIndex(of: "(") else { return nil }
        return Int(String(text[text.index(after: open)..<text.index(text.endIndex, offsetBy: -2)]).trimmingWhitespace)
    }

    /// `[YYYY-]MM-DD HH:MM:SS.mmm  PID  TID L TAG: ` → PID.
    static func threadtime(_ text: String) -> Int? {
        // Most lines of a tombstone are not logcat's: they fail at their first byte, before the line is split.
        guard let first = text.utf8.first, (0x30...0x39).contains(first) else { return nil }
        var fields = text.utf8.split(separator: 0x20, maxSplits: 5, omittingEmptySubsequences: true).prefix(5)
        guard fields.count == 5 else { return nil }
        let date = fields.removeFirst(), time = fields.removeFirst()
        guard date.count == 5 || date.count == 10,
            date.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) }),
            time.count >= 8, time.dropFirst(2).first == UInt8(ascii: ":"),
            time.allSatisfy({ $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) })
        else { return nil }
        let pid = fields.removeFirst(), tid = fields.removeFirst(), level = fields.removeFirst()
        guard tid.allSatisfy({ (0x30...0x39).contains($0) }), level.count == 1, isLevel(level.first!)
        else { return nil }
        return Int(String(decoding: pid, as: UTF8.self))
    }

    /// Whether `byte` is one of logcat's priority letters (`VDIWEFA`): asked of the first byte of every line.
    static func isLevel(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "V"), UInt8(ascii: "D"), UInt8(ascii: "I"), UInt8(ascii: "W"), UInt8(ascii: "E"),
            UInt8(ascii: "F"), UInt8(ascii: "A"):
            true
        default: false
        }
    }

    /// `L/TAG( PID): ` → PID.
    static func brief(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard utf8.count > 6, isLevel(utf8.first!), utf8.dropFirst().first == UInt8(ascii: "/"),
            let open = utf8.firstIndex(of: UInt8(ascii: "(")),
            let close = utf8[open...].firstIndex(of: UInt8(ascii: ")")),
            utf8[close...].starts(with: "): ".utf8)
        else { return nil }
        return Int(String(decoding: utf8[utf8.index(after: open)..<close], as: UTF8.self).trimmingWhitespace)
    }

    /// The writer of the tombstone in `lines`: the writer of its `*** *** ***` banner, else of its first
    /// `pid: N, tid: M` header; nil when the lines name no writers.
    static func tombstoneWriter(_ lines: [LogLine], writers: [Int?]) -> Int? {
        // Over each line's bytes: every logcat line of a tombstone is asked.
        if let banner = lines.indices.first(where: {
            writers[$0] != nil && lines[$0].textStarts(with: "*** *** *** *** ***")
        }) {
            return writers[banner]
        }
        return lines.indices.first {
            writers[$0] != nil && lines[$0].textContains("pid: ") && lines[$0].textContains(", tid: ")
        }
        .flatMap { writers[$0] }
    }
}
