import DWARF
public import ObjectFiles
import PostmortemCore

/// Everything a Breakpad symbol file says about one module.
public struct BreakpadSymbolFile: Sendable {
    public var module: BreakpadModuleLine
    /// The `INFO CODE_ID` value: the ELF build-id in upper-case hex.
    public var codeID: String?
    /// Extra `INFO` lines (`GENERATOR …`).
    public var info: [String]
    /// `FILE` paths by number.
    public var files: [String]
    /// `INLINE_ORIGIN` names by number.
    public var inlineOrigins: [String]
    /// `FUNC` and `PUBLIC` records by address.
    public var symbols: [BreakpadSymbol]
    /// `STACK CFI INIT` and `STACK CFI` lines, as written.
    public var stackCFI: [String]
}

/// Why a symbol file cannot be written, or what was left out of one.
public struct SymbolFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file concerned.
    public var path: String
    /// What is wrong, in one line.
    public var detail: String

    public init(path: String, detail: String) {
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(path): \(detail)" }
}

/// Builds the Breakpad symbol file of a binary, as Mozilla's dump_syms (2.3.5, `--inlines`) writes it: functions,
/// lines and inlined calls from DWARF (its own or its separate debug file's), public symbols from the symbol tables,
/// `STACK CFI` from `.eh_frame` and `.debug_frame`.
public struct SymbolFileBuilder: Sendable {
    /// The binary.
    public var binary: ObjectFile
    /// Its DWARF: the binary itself, or its separate debug file; `nil` for a stripped binary with none found.
    public var debugFile: ObjectFile?
    /// Whether `INLINE` and `INLINE_ORIGIN` records are written.
    public var writesInlines: Bool
    /// The `INFO GENERATOR` value.
    public var generator: String

    public init(binary: ObjectFile, debugFile: ObjectFile?, writesInlines: Bool = true, generator: String) {
        self.binary = binary
        self.debugFile = debugFile
        self.writesInlines = writesInlines
        self.generator = generator
    }

    /// The symbol file, and what was left out of it (a unit or frame entry that could not be read) in one line each.
    /// - Throws: ``SymbolFileError`` when the binary is not an ELF file or has no build-id to name it by.
    public func build() throws(SymbolFileError) -> (file: BreakpadSymbolFile, problems: [String]) {
        guard binary.format == .elf else {
            throw SymbolFileError(path: binary.path, detail: "is a Mach-O file; symbol files are written for ELF files only")
        }
        guard let buildID = binary.buildID, let debugID = BreakpadDebugID.of(buildID: buildID) else {
            throw SymbolFileError(path: binary.path, detail: "has no build-id, which names a module in a symbol file (link with --build-id)")
        }
        var problems: [String] = []
        let binarySymbols: ELFFunctionSymbols
        do { binarySymbols = try ELFFunctionSymbols(of: binary) } catch { throw SymbolFileError(path: binary.path, detail: error.description) }
        var symbols = binarySymbols.functions
        if let debugFile, debugFile.path != binary.path {
            do { symbols = try ELFFunctionSymbols(of: debugFile).functions + symbols } catch { problems.append(error.description) }
        }
        let base = binary.segments.first?.virtualAddress.rawValue ?? 0
        let names = BreakpadNames()
        var symbolNames: [UInt64: String] = [:]
        for symbol in symbols where symbolNames[symbol.address.rawValue] == nil { symbolNames[symbol.address.rawValue] = symbol.name }

        var numbering = RecordNumbering(originName: { name in
            let shown = names.displayName(name).filter { !$0.isASCII || !($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) }
            return shown.allSatisfy(\.isWhitespace) ? "<name omitted>" : shown
        })
        var map = SymbolMap()
        if let debugFile {
            do {
                var source = DWARFFunctionSource(dwarf: try DWARFFile(object: debugFile), base: base, symbolNames: symbolNames)
                for tree in source.functions() where tree.address != 0 {
                    if map.hasFunction(at: tree.address) {
                        map.markMultiple(at: tree.address)
                        continue
                    }
                    var lines: [BreakpadLine] = []
                    var inlines: [BreakpadInline] = []
                    if writesInlines {
                        (lines, inlines) = LineRecordCollector.records(of: tree, numbering: &numbering)
                    } else {
                        lines = LineRecordCollector.records(of: Self.withoutInlinees(tree), numbering: &numbering).lines
                    }
                    map.addFunction(BreakpadSymbol(address: tree.address, kind: .function(size: tree.size, lines: lines, inlines: inlines),
                                                   name: names.displayName(tree.name)))
                }
                problems += source.problems
            } catch {
                problems.append(error.description)
            }
        }
        map.preparePublics(at: symbols.map(\.address.rawValue))
        for symbol in symbols where !BreakpadNames.isConstant(symbol.name) {
            map.addPublic(address: symbol.address.rawValue, size: symbol.size, name: names.displayName(symbol.name))
        }
        let moduleName = binarySymbols.sharedObjectName ?? binary.fileName
        for section in binary.sections where section.isExecutable {
            map.addIfVacant(BreakpadSymbol(address: section.address.rawValue &- base, kind: .publicSymbol,
                                           name: "<\(section.name) ELF section in \(binary.fileName)>"))
        }

        var stackCFI: [String] = []
        let cfi = StackCFIRecords(architecture: binary.architecture, base: base)
        for file in [binary] + (debugFile.map { $0.path == binary.path ? [] : [$0] } ?? []) {
            do {
                let listing = try CallFrameListing(object: file)
                stackCFI += cfi.lines(of: listing)
                problems += listing.problems.map { "\(file.path): call-frame information: \($0)" }
            } catch {
                problems.append(error.description)
            }
        }
        let module = BreakpadModuleLine(operatingSystem: "Linux", architecture: BreakpadRegisterNames.moduleArchitecture(binary.architecture),
                                        debugID: debugID, name: moduleName)
        let file = BreakpadSymbolFile(module: module, codeID: buildID.hex.uppercased(), info: ["GENERATOR \(generator)"],
                                      files: numbering.files.map(Self.normalizedPath), inlineOrigins: writesInlines ? numbering.origins : [],
                                      symbols: map.sorted, stackCFI: stackCFI)
        return (file, problems)
    }

    /// The function alone, as records without inlines describe it: inlined code keeps the line of the call, and rows
    /// at line 0 are left out.
    private static func withoutInlinees(_ tree: FunctionTree) -> FunctionTree {
        var outer = tree
        outer.inlinees = []
        outer.lines = tree.lines.filter { $0.position.line != 0 }
        return outer
    }

    /// `path` with `.` and empty components removed and `..` applied, as dump_syms normalizes source paths.
    static func normalizedPath(_ path: String) -> String {
        let isAbsolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", isAbsolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return isAbsolute ? "/" + joined : joined.isEmpty ? "." : joined
    }
}
