/// Finds what a logger put before every line of a log — `docker logs --timestamps`' time, journald's
/// `Nov 25 10:00:01 host app[123]: `, `kubectl logs --prefix`' `[pod/app-7d9f/app] `, logcat's, a CI runner's — from the
/// lines themselves: a prefix is a run of tokens of one shape (digits, letters, punctuation, ending in a space) that most
/// lines start with. No list of products: any logger whose prefix keeps one shape from line to line is found.
///
/// A shape found this way may also be the log's own (the `#0  ` of every gdb frame line), so a caller keeps a prefix
/// only when the log parses at least as well without it (see ``CrashLogParser``).
package struct LinePrefixes {
    /// A prefix's shape: one class per token (`9` a run of digits, `a` of ASCII letters, ` ` of blanks, `u` a non-ASCII
    /// byte, any other byte itself).
    package typealias Shape = [UInt8]

    /// At most this many tokens make a prefix (a timestamp, a host, a process and a level take about 25).
    static let maximumTokens = 40
    /// At most this many blanks lie inside a prefix (logcat's threadtime has 7).
    static let maximumBlanks = 10
    /// At most this many lines, spread over the log, are read to find the shapes a prefix may have.
    static let spreadSize = 48
    /// How many of a log's first non-empty lines tell whether it may have a prefix (all but one must start with it).
    static let firstLinesAsked = 5
    /// At most this many lines are read to find a prefix.
    package static let sampleSize = 4_000
    /// The share of the non-empty lines a prefix must start.
    package static let minimumCoverage = 0.6

    /// The classes of the first tokens of `text` and where each ends (in UTF-8 bytes).
    static func tokens(of line: LogLine, limit: Int = maximumTokens) -> [(kind: UInt8, end: Int)] {
        line.withTextBytes { tokens(of: $0, limit: limit) }
    }

    static func tokens(of text: Span<UInt8>, limit: Int) -> [(kind: UInt8, end: Int)] {
        var tokens: [(kind: UInt8, end: Int)] = []
        tokens.reserveCapacity(limit)
        var position = 0
        var previous: UInt8?
        for index in text.indices {
            let kind = kind(of: text[index])
            position += 1
            if kind == previous, runs(kind) {
                tokens[tokens.count - 1].end = position
                continue
            }
            if tokens.count == limit { break }
            tokens.append((kind, position))
            previous = kind
        }
        return tokens
    }

    @inline(__always) static func kind(of byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(ascii: "9")
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt8(ascii: "a")
        case UInt8(ascii: " "), UInt8(ascii: "\t"): UInt8(ascii: " ")
        case 0x80...: UInt8(ascii: "u")
        default: byte
        }
    }

    /// Whether bytes of `kind` run together into one token (digits, letters, blanks, non-ASCII); punctuation does not.
    @inline(__always) static func runs(_ kind: UInt8) -> Bool {
        kind == UInt8(ascii: "9") || kind == UInt8(ascii: "a") || kind == UInt8(ascii: " ") || kind == UInt8(ascii: "u")
    }

    /// The shapes that start at least ``minimumCoverage`` of the non-empty lines of `lines` and their first lines (``startsFirstLines(of:withOneOf:)``), longest first: each starts with something other than a blank and
    /// ends in one.
    package static func candidates(in lines: ArraySlice<LogLine>) -> [Shape] {
        // Shapes are counted on a spread of lines (a prefix on most lines is on most of them too), then each kept
        // shape's coverage of all lines is checked: counting every shape of every line costs most of a clean log's
        // parse.
        let all = lines.prefix(sampleSize)
        var nonEmptyCount = 0
        for line in all where !line.isTextEmpty { nonEmptyCount += 1 }
        // On one line, any start is a "prefix" (a dump's `- 0 elements`): a logger's shows on several.
        guard nonEmptyCount >= 2 else { return [] }
        // Every step-th non-empty line, at most spreadSize of them.
        let step = max(1, nonEmptyCount / spreadSize)
        var spread: [Int] = []
        spread.reserveCapacity(spreadSize)
        var ordinal = 0
        for index in all.indices where !lines[index].isTextEmpty {
            if ordinal % step == 0 { spread.append(index) }
            ordinal += 1
            if spread.count == spreadSize { break }
        }
        // Most logs have no prefix: when no two first tokens are common to the spread, none is. Counted without
        // building tokens or a table: every log comes here.
        var firstTwo: [(kinds: UInt16, count: Int)] = []
        firstTwo.reserveCapacity(spread.count)
        for index in spread {
            guard let kinds = firstTwoKinds(of: lines[index]) else { continue }
            if let slot = firstTwo.firstIndex(where: { $0.kinds == kinds }) {
                firstTwo[slot].count += 1
            } else {
                firstTwo.append((kinds, 1))
            }
        }
        let needed = Int((Double(spread.count) * minimumCoverage * 0.8).rounded(.up))
        let common = firstTwo.filter { $0.count >= needed }.map(\.kinds)
        guard !common.isEmpty, startsFirstLines(of: all, withOneOf: common) else { return [] }
        // A line said again and again (gdb's `(no debugging symbols found)` for every library) is one line: its start is
        // the line's own, not a logger's, and it would be tried as a prefix, a reading of the sample each time.
        var seen = Set<String>()
        let distinct = spread.filter { seen.insert(lines[$0].text).inserted }
        let neededOfDistinct = Int((Double(distinct.count) * minimumCoverage * 0.8).rounded(.up))
        // Shapes are counted by a digest of their classes, not as arrays (a key array copied and hashed at every
        // blank of every line cost as much as the rest of a log's reading); the shape is rebuilt from a line that has it.
        // Two shapes whose 64-bit digests collided would count as one; every shape kept is checked on all the lines below.
        var counts: [UInt64: (count: Int, line: Int, tokens: Int)] = [:]
        for index in distinct {
            let tokens = tokens(of: lines[index])
            var blanks = 0
            // Indentation is the log's own (a sanitizer's frames, lldb's): a prefix starts with something else.
            guard let first = tokens.first, first.kind != UInt8(ascii: " ") else { continue }
            var digest: UInt64 = 0xcbf2_9ce4_8422_2325
            for (position, token) in tokens.enumerated() {
                digest = (digest ^ UInt64(token.kind)) &* 0x100_0000_01b3
                // A blank that ends the line leaves nothing after the prefix: a line with only the prefix counts too.
                guard token.kind == UInt8(ascii: " "), position > 0 else { continue }
                counts[digest &+ UInt64(position), default: (0, index, position + 1)].count += 1
                blanks += 1
                if blanks == maximumBlanks { break }
            }
        }
        // On the spread a prefix may miss a few lines it has on the whole; the whole decides.
        let kept = counts.values.filter { $0.count >= neededOfDistinct }.map { found in
            tokens(of: lines[found.line]).prefix(found.tokens).map(\.kind)
        }.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1)
        }
        return kept.filter { coverage(of: $0, in: all) >= minimumCoverage }
    }

    /// Whether all but one of the first ``firstLinesAsked`` non-empty lines of `lines` (and more than half) start with
    /// tokens of one of `kinds` (``firstTwoKinds(of:)``). A logger writes its prefix on every line, the first ones too
    /// (all but a header line: journalctl's `-- Logs begin at …`); a shape common to the log that its first lines lack
    /// is the log's own — the numbers of frames below a message and a heading, gdb's `#1  ` below a thread's — and is
    /// not worth the trial readings a candidate costs.
    static func startsFirstLines(of lines: ArraySlice<LogLine>, withOneOf kinds: [UInt16]) -> Bool {
        var read = 0, started = 0
        for line in lines where !line.isTextEmpty {
            read += 1
            if let first = firstTwoKinds(of: line), kinds.contains(first) { started += 1 }
            if read == firstLinesAsked { break }
        }
        return started * 2 > read && started >= read - 1
    }

    /// The classes of the first two tokens of `text` (the second 0 when there is one token), as one number; `nil`
    /// when `text` is empty or starts with a blank (indentation is the log's own, never a logger's prefix).
    static func firstTwoKinds(of line: LogLine) -> UInt16? {
        line.withTextBytes { firstTwoKinds(of: $0) }
    }

    static func firstTwoKinds(of text: Span<UInt8>) -> UInt16? {
        guard !text.isEmpty else { return nil }
        let first = kind(of: text[0])
        guard first != UInt8(ascii: " ") else { return nil }
        var second: UInt8 = 0
        for index in 1..<text.count {
            let kind = kind(of: text[index])
            if kind == first, runs(kind) { continue }
            second = kind
            break
        }
        return UInt16(first) << 8 | UInt16(second)
    }

    /// The bytes of `text` a prefix of `shape` takes, and how many blanks end it; `nil` when `text` does not start
    /// with one.
    package static func prefix(of text: Span<UInt8>, shape: Shape) -> (length: Int, trailingBlanks: Int)? {
        // Token by token against the shape, without building the tokens (this runs on every line of a log).
        guard let last = shape.last else { return nil }
        var matched = 0, position = 0, tokenStart = 0
        var previous: UInt8?
        for index in text.indices {
            let kind = kind(of: text[index])
            if kind == previous, runs(kind) {
                position += 1
                continue
            }
            // A new token: the one before it ends here.
            if matched == shape.count { return (position, position - tokenStart) }
            guard kind == shape[matched] else { return nil }
            matched += 1
            tokenStart = position
            position += 1
            previous = kind
        }
        return matched == shape.count && previous == last ? (position, position - tokenStart) : nil
    }

    /// `lines` with every prefix of `shape` moved out of their text (``LogLine/prefix``). The blanks that end a prefix
    /// are the logger's only as far as every line has them: more are the line's own indentation (`  0 [ra] 0x…` after
    /// `app[42]: `), and stay.
    package static func strip(_ shape: Shape, from lines: [LogLine]) -> [LogLine] {
        let found = lines.map { line in line.withTextBytes { prefix(of: $0, shape: shape) } }
        // Lines with nothing after the prefix say nothing of the blanks the logger writes.
        let fewest =
            zip(lines, found).compactMap { line, found in
                found.flatMap { $0.length < line.textByteCount ? $0.trailingBlanks : nil }
            }.min() ?? 1
        return zip(lines, found).map { line, found in
            guard let found else { return line }
            var stripped = line
            stripped.movePrefix(byteCount: found.length - max(0, found.trailingBlanks - fewest))
            return stripped
        }
    }

    /// The share of the non-empty lines of `lines` that start with `shape`.
    package static func coverage(of shape: Shape, in lines: ArraySlice<LogLine>) -> Double {
        var nonEmpty = 0, covered = 0
        for line in lines where !line.isTextEmpty {
            nonEmpty += 1
            if line.withTextBytes({ prefix(of: $0, shape: shape) }) != nil { covered += 1 }
        }
        return nonEmpty == 0 ? 0 : Double(covered) / Double(nonEmpty)
    }
}
