import ObjectFiles
import PostmortemCore
import Symbolication

/// A Breakpad symbol file read for lookups: its records parsed in place from a mapping of the file into flat arrays of
/// numbers (names and paths stay in the mapping, read when an answer needs them), so that a file of hundreds of MB
/// costs no allocation per record. Immutable once read: any thread may look up.
package final class SymbolFileIndex: Sendable {
    /// The `MODULE` line.
    package let module: BreakpadModuleLine
    /// The file's path.
    package let path: String
    /// Lines that could not be read, each with its number and what is wrong (at most ``maximumProblems``).
    package let problems: [String]

    /// The symbol file's bytes.
    let bytes: ImmutableBytes
    /// The tables the records below are read from.
    let tables: SymbolFileTables
    private let files: StoredRecords<TextRecord>
    private let origins: StoredRecords<TextRecord>
    private let functions: StoredRecords<Function>
    private let lines: StoredRecords<Line>
    private let inlines: StoredRecords<Inline>
    private let inlineRanges: StoredRecords<BreakpadRange>
    private let publics: StoredRecords<Public>
    /// `STACK CFI INIT` records by address, each with its `STACK CFI` records in ``callFrameDeltas``.
    let callFrameInits: StoredRecords<CallFrameInit>
    let callFrameDeltas: StoredRecords<CallFrameDelta>
    /// Whether the tables were read from the index cache (not parsed in this run).
    package let isFromIndexCache: Bool

    /// The most problems kept (a file damaged throughout would otherwise list every line).
    package static let maximumProblems = 20

    struct Function {
        var address: UInt64
        var size: UInt64
        var name: Range<Int>
        var lines: Range<Int>
        var inlines: Range<Int>
    }

    struct Line {
        var address: UInt64
        var size: UInt64
        var line: UInt32
        var file: UInt32
    }

    struct Inline {
        var depth: UInt32
        var callLine: UInt32
        var callFile: UInt32
        var origin: UInt32
        var ranges: Range<Int>
    }

    struct Public {
        var address: UInt64
        var name: Range<Int>
    }

    /// A function's call-frame rules at its first address, and where its changes are.
    struct CallFrameInit {
        var address: UInt64
        var size: UInt64
        /// The rules' text (`.cfa: $rsp 8 + .ra: .cfa -8 + ^`), in the mapping.
        var rules: Range<Int>
        /// Its `STACK CFI` records, by address.
        var deltas: Range<Int>
    }

    /// The rules that change from `address` on.
    struct CallFrameDelta {
        var address: UInt64
        var rules: Range<Int>
    }

    /// Whether the file at `path` starts as a Breakpad symbol file does (`MODULE `).
    package static func isSymbolFile(_ path: String) -> Bool {
        FileSystem.read(path, offset: 0, count: 7) == Array("MODULE ".utf8)
    }

    /// The symbol file's bytes, mapped.
    static func mapped(_ path: String) throws(SymbolFileError) -> ImmutableBytes {
        do { return try ImmutableBytes(mapping: path) } catch {
            throw SymbolFileError(path: path, detail: error.detail)
        }
    }

    /// Reads a symbol file's `bytes` (`path` names it in errors and answers).
    /// - Throws: ``SymbolFileError`` when the bytes do not start with a `MODULE` line.
    package convenience init(bytes mapped: ImmutableBytes, path: String) throws(SymbolFileError) {
        var parser = SymbolFileParser(mapped)
        let module = try Self.moduleLine(&parser, path: path)
        parser.parseRecords()
        self.init(module: module, bytes: mapped, path: path, tables: SymbolFileTables(&parser), fromIndexCache: false)
    }

    /// The `MODULE` line `parser` reads first.
    static func moduleLine(_ parser: inout SymbolFileParser, path: String) throws(SymbolFileError) -> BreakpadModuleLine
    {
        guard let module = parser.moduleLine() else {
            throw SymbolFileError(
                path: path, detail: "is not a Breakpad symbol file (its first line is not MODULE OS ARCH DEBUGID NAME)")
        }
        return module
    }

    /// The index of the symbol file `bytes` at `path` whose records are in `tables`.
    init(
        module: BreakpadModuleLine, bytes: ImmutableBytes, path: String, tables: SymbolFileTables, fromIndexCache: Bool
    ) {
        self.module = module
        self.path = path
        self.bytes = bytes
        self.tables = tables
        isFromIndexCache = fromIndexCache
        files = tables.records(.files)
        origins = tables.records(.origins)
        functions = tables.records(.functions)
        lines = tables.records(.lines)
        inlines = tables.records(.inlines)
        inlineRanges = tables.records(.inlineRanges)
        publics = tables.records(.publics)
        callFrameInits = tables.records(.callFrameInits)
        callFrameDeltas = tables.records(.callFrameDeltas)
        problems = tables.problems
    }

    /// What the file says about `address` (an offset from the module's base): the inline chain, innermost first (its
    /// last frame the function the code belongs to), the covering function or public symbol and the offset into it.
    /// Symbol files state no columns: every frame's column is 0.
    package func resolve(_ address: UInt64) -> AddressResolution {
        let fileAddress = FileAddress(address)
        if let function = function(containing: address) {
            let name = string(function.name)
            let line = self.line(in: function, at: address)
            let chain = inlineChain(of: function, at: address)
            var frames: [SymbolicatedFrame] = []
            var position = (file: line.map { file($0.file) } ?? nil, line: Int(line?.line ?? 0))
            for inline in chain.reversed() {
                frames.append(
                    SymbolicatedFrame(
                        function: origin(inline.origin), linkageName: nil, file: position.file,
                        line: position.line, column: 0, isInlined: true))
                position = (file(inline.callFile), Int(inline.callLine))
            }
            frames.append(
                SymbolicatedFrame(
                    function: name, linkageName: nil, file: position.file, line: position.line, column: 0,
                    isInlined: false))
            return AddressResolution(
                address: fileAddress, frames: frames, symbol: name, symbolOffset: address - function.address,
                functionStart: FileAddress(function.address), unresolvedReason: nil)
        }
        if let symbol = publicSymbol(before: address) {
            let name = string(symbol.name)
            let frame = SymbolicatedFrame(
                function: name, linkageName: nil, file: nil, line: 0, column: 0, isInlined: false)
            return AddressResolution(
                address: fileAddress, frames: [frame], symbol: name, symbolOffset: address - symbol.address,
                functionStart: FileAddress(symbol.address), unresolvedReason: nil)
        }
        return AddressResolution(
            address: fileAddress, frames: [], symbol: nil, symbolOffset: nil, functionStart: nil,
            unresolvedReason: .notInSymbolFile(module: module.name))
    }

    /// Offsets worth asking about: each function's first and last byte and each public symbol's start (for checks).
    package var sampleOffsets: [UInt64] {
        functions.flatMap { [$0.address, $0.address &+ max($0.size, 1) &- 1] } + publics.map(\.address)
            + callFrameInits.flatMap { [$0.address, $0.address &+ max($0.size, 1) &- 1] }
            + callFrameDeltas.map(\.address)
    }

    private func function(containing address: UInt64) -> Function? {
        let end = functions.end(ofKeysAtMost: address, \.address)
        guard end > 0 else { return nil }
        let candidate = functions[end - 1]
        return address - candidate.address < max(candidate.size, 1) ? candidate : nil
    }

    /// The public symbol at or before `address`, when no function starts between the two (a public symbol covers up to
    /// the next record).
    private func publicSymbol(before address: UInt64) -> Public? {
        let end = publics.end(ofKeysAtMost: address, \.address)
        guard end > 0 else { return nil }
        let candidate = publics[end - 1]
        let nextFunction = functions.end(ofKeysAtMost: candidate.address, \.address)
        if nextFunction < functions.count, functions[nextFunction].address <= address { return nil }
        return candidate
    }

    private func line(in function: Function, at address: UInt64) -> Line? {
        let run = lines.clamped(function.lines)
        let end = lines[run].end(ofKeysAtMost: address, \.address)
        guard end > run.lowerBound else { return nil }
        let candidate = lines[end - 1]
        return address - candidate.address < max(candidate.size, 1) ? candidate : nil
    }

    /// The inlined calls covering `address`, outermost first (one per depth).
    private func inlineChain(of function: Function, at address: UInt64) -> [Inline] {
        var chain: [Inline] = []
        for index in inlines.clamped(function.inlines) {
            let inline = inlines[index]
            guard
                inlineRanges[inlineRanges.clamped(inline.ranges)].contains(where: {
                    address >= $0.address && address - $0.address < $0.size
                })
            else { continue }
            chain.append(inline)
        }
        chain.sort { $0.depth < $1.depth }
        // A chain with a depth missing or repeated is damage: it is cut where it stops going one deeper at a time.
        var kept: [Inline] = []
        for inline in chain where inline.depth == UInt32(kept.count) { kept.append(inline) }
        return kept
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: bytes.bytes(range), as: UTF8.self)
    }

    private func file(_ number: UInt32) -> String? {
        Int(number) < files.count ? files[Int(number)].text.map(string) : nil
    }

    private func origin(_ number: UInt32) -> String? {
        Int(number) < origins.count ? origins[Int(number)].text.map(string) : nil
    }
}
