import ObjectFiles
import PostmortemCore

/// Reads the records of a Breakpad symbol file from its bytes, line by line, into the arrays ``SymbolFileIndex`` keeps:
/// numbers parsed in place, names and paths kept as byte ranges. A line that cannot be read is counted in
/// ``problems`` (the first few, with their line numbers) and left out; the rest is read.
struct SymbolFileParser {
    private let data: ImmutableBytes
    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    private var lineNumber = 0

    var files: [Range<Int>?] = []
    var origins: [Range<Int>?] = []
    var functions: [SymbolFileIndex.Function] = []
    var lines: [SymbolFileIndex.Line] = []
    var inlines: [SymbolFileIndex.Inline] = []
    var inlineRanges: [BreakpadRange] = []
    var publics: [SymbolFileIndex.Public] = []
    var callFrameInits: [SymbolFileIndex.CallFrameInit] = []
    var callFrameDeltas: [SymbolFileIndex.CallFrameDelta] = []
    var problems: [String] = []
    private var problemCount = 0

    init(_ data: ImmutableBytes) {
        self.data = data
        bytes = data.reader.bytes
    }

    /// The next line's byte range (without its `\n` or `\r\n`), or `nil` at the end.
    private mutating func nextLine() -> Range<Int>? {
        guard position < bytes.count else { return nil }
        let start = position
        var end = start
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        position = end + 1
        lineNumber += 1
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    /// The `MODULE` line, read first; `nil` when the file does not start with one.
    mutating func moduleLine() -> BreakpadModuleLine? {
        guard let line = nextLine() else { return nil }
        var fields = Fields(bytes, line)
        guard fields.word() == "MODULE", let os = fields.word(), let architecture = fields.word(),
            let id = fields.word()
        else { return nil }
        let name = fields.rest()
        guard !name.isEmpty else { return nil }
        return BreakpadModuleLine(
            operatingSystem: os, architecture: architecture, debugID: id,
            name: String(decoding: bytes[name], as: UTF8.self))
    }

    /// Reads every record after the `MODULE` line.
    mutating func parseRecords() {
        var currentFunction: Int?
        while let line = nextLine() {
            guard !line.isEmpty else { continue }
            var fields = Fields(bytes, line)
            let first = bytes[line.lowerBound]
            // Line records (lower-case hex digits first; keywords are upper case) are the most frequent: tried first.
            if Fields.isLineRecordStart(first), let function = currentFunction {
                guard let address = fields.hex(), let size = fields.hex(), let number = fields.decimal(),
                    let file = fields.decimal()
                else {
                    problem("a line record is not ADDRESS SIZE LINE FILE")
                    continue
                }
                lines.append(
                    SymbolFileIndex.Line(
                        address: address, size: size, line: UInt32(clamping: number), file: UInt32(clamping: file)))
                functions[function].lines = functions[function].lines.lowerBound..<lines.count
                continue
            }
            switch fields.word() {
            case "FILE":
                guard let number = fields.decimal(), number < 1 << 24 else {
                    problem("a FILE record has no number"); continue
                }
                let value = fields.rest()
                Self.set(&files, Int(number), value)
            case "INLINE_ORIGIN":
                guard let number = fields.decimal(), number < 1 << 24 else {
                    problem("an INLINE_ORIGIN record has no number"); continue
                }
                let value = fields.rest()
                Self.set(&origins, Int(number), value)
            case "FUNC":
                currentFunction = nil
                fields.skip("m")
                guard let address = fields.hex(), let size = fields.hex(), fields.hex() != nil else {
                    problem("a FUNC record is not FUNC [m] ADDRESS SIZE PARAMETER_SIZE NAME")
                    continue
                }
                functions.append(
                    SymbolFileIndex.Function(
                        address: address, size: size, name: fields.rest(),
                        lines: lines.count..<lines.count, inlines: inlines.count..<inlines.count))
                currentFunction = functions.count - 1
            case "INLINE":
                guard let function = currentFunction, let depth = fields.decimal(), let callLine = fields.decimal(),
                    let callFile = fields.decimal(), let origin = fields.decimal()
                else {
                    problem(
                        "an INLINE record is not INLINE DEPTH CALL_LINE CALL_FILE ORIGIN [ADDRESS SIZE]… after a FUNC")
                    continue
                }
                let first = inlineRanges.count
                while let address = fields.hex(), let size = fields.hex() {
                    inlineRanges.append(BreakpadRange(address: address, size: size))
                }
                inlines.append(
                    SymbolFileIndex.Inline(
                        depth: UInt32(clamping: depth), callLine: UInt32(clamping: callLine),
                        callFile: UInt32(clamping: callFile), origin: UInt32(clamping: origin),
                        ranges: first..<inlineRanges.count))
                functions[function].inlines = functions[function].inlines.lowerBound..<inlines.count
            case "PUBLIC":
                currentFunction = nil
                fields.skip("m")
                guard let address = fields.hex(), fields.hex() != nil else {
                    problem("a PUBLIC record is not PUBLIC [m] ADDRESS PARAMETER_SIZE NAME")
                    continue
                }
                publics.append(SymbolFileIndex.Public(address: address, name: fields.rest()))
            case "STACK":
                currentFunction = nil
                readStackRecord(&fields)
            case "INFO":
                currentFunction = nil
            default:
                problem("a line of no known record")
            }
        }
    }

    /// `STACK CFI INIT ADDRESS SIZE RULES…` starts a function's rules; `STACK CFI ADDRESS RULES…` changes them from
    /// an address on (it follows its INIT record). `STACK WIN` records (Windows frame data) are not read.
    private mutating func readStackRecord(_ fields: inout Fields) {
        guard fields.word() == "CFI" else { return }
        let saved = fields.position
        if fields.word() == "INIT" {
            guard let address = fields.hex(), let size = fields.hex() else {
                problem("a STACK CFI INIT record is not STACK CFI INIT ADDRESS SIZE RULES")
                return
            }
            callFrameInits.append(
                SymbolFileIndex.CallFrameInit(
                    address: address, size: size, rules: fields.rest(),
                    deltas: callFrameDeltas.count..<callFrameDeltas.count))
            return
        }
        fields.position = saved
        guard let address = fields.hex(), !callFrameInits.isEmpty else {
            problem("a STACK CFI record is not STACK CFI ADDRESS RULES after a STACK CFI INIT")
            return
        }
        callFrameDeltas.append(SymbolFileIndex.CallFrameDelta(address: address, rules: fields.rest()))
        let last = callFrameInits.count - 1
        callFrameInits[last].deltas = callFrameInits[last].deltas.lowerBound..<callFrameDeltas.count
    }

    private static func set(_ table: inout [Range<Int>?], _ number: Int, _ value: Range<Int>) {
        if number >= table.count { table += [Range<Int>?](repeating: nil, count: number + 1 - table.count) }
        table[number] = value
    }

    private mutating func problem(_ what: String) {
        problemCount += 1
        if problems.count < SymbolFileIndex.maximumProblems { problems.append("line \(lineNumber): \(what)") }
    }
}

/// The space-separated fields of one line, read from the left.
struct Fields {
    let bytes: UnsafeRawBufferPointer
    var position: Int
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) {
        self.bytes = bytes
        position = line.lowerBound
        end = line.upperBound
    }

    static func isLineRecordStart(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// The next word, as text.
    mutating func word() -> String? {
        let range = next()
        return range.isEmpty ? nil : String(decoding: bytes[range], as: UTF8.self)
    }

    /// Steps over the next word when it is `word` (the `m` flag of FUNC and PUBLIC).
    mutating func skip(_ word: String) {
        let saved = position
        if self.word() != word { position = saved }
    }

    mutating func hex() -> UInt64? {
        let range = next()
        guard !range.isEmpty, range.count <= 16 else { return nil }
        var value: UInt64 = 0
        for index in range {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            case 0x41...0x46: digit = byte - 0x41 + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    mutating func decimal() -> UInt64? {
        let range = next()
        guard !range.isEmpty, range.count <= 19 else { return nil }
        var value: UInt64 = 0
        for index in range {
            let byte = bytes[index]
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + UInt64(byte - 0x30)
        }
        return value
    }

    /// Everything after the next space (a name or path may hold spaces).
    mutating func rest() -> Range<Int> {
        while position < end, bytes[position] == 0x20 { position += 1 }
        return position..<end
    }

    private mutating func next() -> Range<Int> {
        while position < end, bytes[position] == 0x20 { position += 1 }
        let start = position
        while position < end, bytes[position] != 0x20 { position += 1 }
        return start..<position
    }
}
