import DWARF
import Dispatch
import ObjectFiles
import PostmortemCore
import Synchronization

/// Everything a Breakpad symbol file says about one module.
package struct BreakpadSymbolFile: Sendable {
    /// The `MODULE` line.
    package var module: BreakpadModuleLine
    /// The `INFO CODE_ID` value: the ELF build-id or Mach-O UUID in upper-case hex.
    package var codeID: String?
    /// Extra `INFO` lines (`GENERATOR …`).
    package var info: [String]
    /// `FILE` paths by number.
    package var files: [String]
    /// `INLINE_ORIGIN` names by number.
    package var inlineOrigins: [String]
    /// `FUNC` and `PUBLIC` records by address.
    package var symbols: [BreakpadSymbol]
    /// The `STACK CFI INIT` and `STACK CFI` lines as written (UTF-8), each ending in a newline.
    package var stackCFI: [UInt8]
}

/// Why a symbol file cannot be written, or what was left out of one.
package struct SymbolFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file concerned.
    package var path: String
    /// What is wrong, in one line.
    package var detail: String

    /// A problem with `path`: `detail`.
    package init(path: String, detail: String) {
        self.path = path
        self.detail = detail
    }

    /// The error in one line: the file, and what is wrong.
    package var description: String { "\(path): \(detail)" }
}

/// Builds the Breakpad symbol file of a binary, as Mozilla's dump_syms (2.3.5, `--inlines`) writes it: functions,
/// lines and inlined calls from DWARF (its own, its separate debug file's or its dSYM's), public symbols from the
/// symbol tables, `STACK CFI` from `.eh_frame` and `.debug_frame` (a Mach-O file's compact unwind information is not
/// read: its symbol file says so).
package struct SymbolFileBuilder: Sendable {
    /// The binary.
    package var binary: ObjectFile
    /// Its DWARF: the binary itself, or its separate debug file; `nil` for a stripped binary with none found.
    package var debugFile: ObjectFile?
    /// Whether `INLINE` and `INLINE_ORIGIN` records are written.
    package var writesInlines: Bool
    /// The `INFO GENERATOR` value.
    package var generator: String
    /// The binary's file name, when its path does not end in it (an upload kept under a temporary name).
    package var fileName: String?
    /// The file dwz moved the debug file's common DIEs and strings to, when it has one (``DebugFileLocator`` finds it).
    package var supplementaryFile: ObjectFile?

    /// A builder for `binary`, with functions and lines from `debugFile` (the binary itself when it has DWARF).
    package init(binary: ObjectFile, debugFile: ObjectFile?, writesInlines: Bool = true, generator: String) {
        self.binary = binary
        self.debugFile = debugFile
        self.writesInlines = writesInlines
        self.generator = generator
    }

    /// The symbol file, and what was left out of it (a unit or frame entry that could not be read) in one line each.
    /// - Throws: ``SymbolFileError`` when the binary has no build-id (ELF) or UUID (Mach-O) to name it by.
    package func build() throws(SymbolFileError) -> (file: BreakpadSymbolFile, problems: [String]) {
        let isMachO = binary.format == .machO
        let debugID: String
        let codeID: String
        if isMachO {
            guard let uuid = binary.uuid else {
                throw SymbolFileError(
                    path: binary.path, detail: "has no UUID (LC_UUID), which names a module in a symbol file")
            }
            debugID = BreakpadDebugID.of(uuid: uuid)
            codeID = BuildID(bytes: uuid.bytes).hex.uppercased()
        } else {
            guard let buildID = binary.buildID, let id = BreakpadDebugID.of(buildID: buildID) else {
                throw SymbolFileError(
                    path: binary.path,
                    detail: "has no build-id, which names a module in a symbol file (link with --build-id)")
            }
            debugID = id
            codeID = buildID.hex.uppercased()
        }
        // Addresses are kept from the first loaded segment (ELF, as dump_syms keeps them) or from __TEXT (Mach-O).
        let base = isMachO ? binary.imageBase.rawValue : binary.segments.first?.virtualAddress.rawValue ?? 0
        var problems: [String] = []
        let binarySymbols: (functions: [FunctionSymbol], sharedObjectName: String?)
        do throws(ObjectFileError) {
            if isMachO {
                binarySymbols = (try MachOFunctionSymbols.functions(of: binary), nil)
            } else {
                let read = try ELFFunctionSymbols(of: binary)
                binarySymbols = (read.functions, read.sharedObjectName)
            }
        } catch {
            throw SymbolFileError(path: binary.path, detail: error.description)
        }
        // The call-frame information is read on a second thread (its own libdwarf session) while the functions are
        // built; then, until the builder needs the names, that thread demangles the symbol table's (most functions'
        // names are among them), so that demangling overlaps the DWARF walk instead of following it.
        let cfiResult = PendingResult<(text: [UInt8], problems: [String], names: [String: String])>()
        let namesWanted = StopSignal()
        let builder = self
        let symbolTableNames = Array(Set(binarySymbols.functions.map(\.name)))
        DispatchQueue.global().async {
            let cfi = builder.stackCFI(base: base)
            let namer = BreakpadNames()
            var names: [String: String] = [:]
            for name in symbolTableNames {
                if namesWanted.isSignalled { break }
                names[name] = namer.displayName(name)
            }
            cfiResult.set((cfi.text, cfi.problems, names))
        }
        var symbols = binarySymbols.functions
        if let debugFile, debugFile.path != binary.path {
            do throws(ObjectFileError) {
                let debugSymbols =
                    debugFile.format == .machO
                    ? try MachOFunctionSymbols.functions(of: debugFile)
                    : try ELFFunctionSymbols(of: debugFile).functions
                if isMachO {
                    // A dSYM's symbol table repeats its binary's: one record each, not two names at one address.
                    let known = Set(debugSymbols.map { "\($0.address.rawValue) \($0.name)" })
                    symbols = debugSymbols + symbols.filter { !known.contains("\($0.address.rawValue) \($0.name)") }
                } else {
                    symbols = debugSymbols + symbols
                }
            } catch {
                problems.append(error.description)
            }
        }
        var symbolNames: [UInt64: String] = [:]
        for symbol in symbols where symbolNames[symbol.address.rawValue] == nil {
            symbolNames[symbol.address.rawValue] = symbol.name
        }

        var numbering = RecordNumbering()
        var map = SymbolMap()
        var paths = SourcePathTable()
        if let debugFile {
            do {
                var source = DWARFFunctionSource(
                    dwarf: try DWARFFile(object: debugFile, supplementary: supplementaryFile), base: base,
                    symbolNames: symbolNames)
                source.forEachFunction { tree in
                    guard tree.address != 0 else { return }
                    if map.hasFunction(at: tree.address) {
                        map.markMultiple(at: tree.address)
                        return
                    }
                    var lines: [BreakpadLine] = []
                    var inlines: [BreakpadInline] = []
                    if writesInlines {
                        (lines, inlines) = LineRecordCollector.records(of: tree, numbering: &numbering)
                    } else {
                        lines = LineRecordCollector.records(of: Self.withoutInlinees(tree), numbering: &numbering).lines
                    }
                    map.addFunction(
                        BreakpadSymbol(
                            address: tree.address, kind: .function(size: tree.size, lines: lines, inlines: inlines),
                            name: tree.name))
                }
                paths = source.paths
                problems += source.problems
            } catch {
                problems.append(error.description)
            }
        }
        map.preparePublics(at: symbols.map(\.address.rawValue))
        for symbol in symbols where !BreakpadNames.isConstant(symbol.name) {
            map.addPublic(address: symbol.address.rawValue, size: symbol.size, name: symbol.name)
        }
        let fileName = self.fileName ?? binary.fileName
        let moduleName = binarySymbols.sharedObjectName ?? fileName
        for section in binary.sections where section.isExecutable && !isMachO {
            map.addIfVacant(
                BreakpadSymbol(
                    address: section.address.rawValue &- base, kind: .publicSymbol,
                    name: "<\(section.name) ELF section in \(fileName)>"))
        }

        // The rest of the names are demangled last, each distinct one once, on both cores.
        var records = map.sorted
        namesWanted.signal()
        let cfi = cfiResult.wait()
        let shown = DisplayNames(Set(records.map(\.name)).union(numbering.origins), known: cfi.names)
        for index in records.indices { records[index].name = shown[records[index].name] }
        let origins = numbering.origins.map { name in
            // Control characters would break the line; a name of nothing but spaces is shown as omitted (as dump_syms does).
            var text = shown[name]
            if text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                text = String(decoding: text.utf8.filter { !($0 < 0x20 || $0 == 0x7F) }, as: UTF8.self)
            }
            return text.utf8.allSatisfy { $0 == UInt8(ascii: " ") } ? "<name omitted>" : text
        }
        let module = BreakpadModuleLine(
            operatingSystem: isMachO ? "Mac" : "Linux",
            architecture: BreakpadRegisterNames.moduleArchitecture(binary.architecture),
            debugID: debugID, name: moduleName)
        let file = BreakpadSymbolFile(
            module: module, codeID: codeID, info: ["GENERATOR \(generator)"],
            files: numbering.files.map { paths.paths[Int($0)] }, inlineOrigins: writesInlines ? origins : [],
            symbols: records, stackCFI: cfi.text)
        return (file, problems + cfi.problems)
    }

    /// The `STACK CFI` records of the binary (and of its debug file's `.debug_frame`, if it has one), as one block of text.
    private func stackCFI(base: UInt64) -> (text: [UInt8], problems: [String]) {
        var text = RecordText(capacity: 0)
        var problems: [String] = []
        let records = StackCFIRecords(architecture: binary.architecture, base: base)
        for file in [binary] + (debugFile.map { $0.path == binary.path ? [] : [$0] } ?? []) {
            do {
                // Apple's linkers keep most unwind rules as compact unwind information; `__eh_frame` then holds only
                // the functions it points to, written where it points to them (as dump_syms writes them).
                let compact =
                    file.format == .machO
                    ? (try? ObjectFileReader.sectionContents(named: "__TEXT,__unwind_info", in: file)) ?? nil : nil
                var pointedTo: [UInt64: CallFrameListing.Description] = [:]
                let skipped = try CallFrameListing.forEachDescription(of: file) { description in
                    if compact != nil, description.section == ".eh_frame" {
                        pointedTo[description.sectionOffset] = description
                    } else {
                        records.write(description, into: &text)
                    }
                }
                problems += skipped.map { "\(file.path): call-frame information: \($0)" }
                if let compact, !compact.isEmpty {
                    switch CompactUnwindTable.read(compact) {
                    case .success(let table):
                        writeCompactUnwind(table, of: file, pointedTo: pointedTo, records: records, into: &text)
                    case .failure(let failure):
                        problems.append(
                            "\(file.path): its compact unwind information (__unwind_info) is not read: \(failure)")
                    }
                }
            } catch {
                problems.append(error.description)
            }
        }
        return (text.bytes, problems)
    }

    /// The `STACK CFI INIT` records of a compact unwind table: each run's rules, or the `__eh_frame` FDE it points to.
    private func writeCompactUnwind(
        _ table: CompactUnwindTable, of file: ObjectFile, pointedTo: [UInt64: CallFrameListing.Description],
        records: StackCFIRecords, into text: inout RecordText
    ) {
        let mapped = try? ImmutableBytes(mapping: file.path)
        let base = file.imageBase.rawValue
        for entry in table.entries {
            // A frameless function's large stack size is the immediate of its `subq`, inside its code.
            let rules = CompactUnwindRules.rules(of: entry.encoding, architecture: file.architecture) { offset in
                guard let mapped,
                    let bytes = ObjectFileReader.loadedBytes(
                        at: FileAddress(base &+ UInt64(entry.address) &+ UInt64(offset)),
                        count: 4, in: file, mapped: mapped), bytes.count == 4
                else { return nil }
                return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
            }
            switch rules {
            case .text(let rules):
                text.append("STACK CFI INIT " as StaticString)
                text.appendHex(UInt64(entry.address))
                text.appendByte(UInt8(ascii: " "))
                text.appendHex(UInt64(entry.length))
                text.appendByte(UInt8(ascii: " "))
                text.append(rules)
                text.appendByte(UInt8(ascii: "\n"))
            case .dwarf(let offset):
                if let description = pointedTo[UInt64(offset)] { records.write(description, into: &text) }
            case nil:
                continue
            }
        }
    }

    /// The function alone, as records without inlines describe it: inlined code keeps the line of the call, and rows
    /// at line 0 are left out.
    private static func withoutInlinees(_ tree: FunctionTree) -> FunctionTree {
        var outer = tree
        outer.inlinees = []
        outer.lines = tree.lines.filter { $0.position.line != 0 }
        return outer
    }
}

/// A flag one thread raises and another polls.
private final class StopSignal: Sendable {
    private let raised = Atomic<Bool>(false)

    var isSignalled: Bool { raised.load(ordering: .relaxed) }

    func signal() { raised.store(true, ordering: .relaxed) }
}

/// A value another thread sets once, waited for.
private final class PendingResult<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func set(_ result: Value) {
        value.withLock { $0 = result }
        done.signal()
    }

    func wait() -> Value {
        done.wait()
        return value.withLock { $0! }
    }
}
