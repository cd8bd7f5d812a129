import Dispatch
import ObjectFiles
import PostmortemCore
import Synchronization

/// The DWARF of one ELF file or Mach-O debug file, read in place.
///
/// Opening maps the file and reads the unit headers; ``compileUnits()`` reads one DIE per unit; ``contents(of:)``
/// reads one unit's functions and line table. Immutable but for memos behind locks: any number of threads read
/// through one instance at once, and no read of the sections takes a lock.
package final class DWARFFile: Sendable {
    /// The file read.
    package let path: String
    /// The image the DWARF belongs to (one slice, for a universal file).
    package let object: ObjectFile
    /// The sections the DIE walk and the line-program reader read in place.
    let sections: DebugSections
    /// The headers of `.debug_info`'s units.
    let headers: UnitHeaders
    /// Follows name references of function records, remembering what it resolved.
    private let nameResolver: FunctionNameResolver
    /// What gdb's answers (asked of many addresses in a row) read once: ``GDBMemo``.
    let gdbMemo = Mutex(GDBMemo())

    /// The file dwz moved this file's common DIEs and strings to, when one was given and could be read.
    package var supplementaryPath: String? { sections.supplementary?.path }
    /// Why the common file given could not be read, in one line; `nil` when it was, or none was given.
    package let supplementaryProblem: String?

    /// Opens the DWARF of `object`: an ELF file, a thin Mach-O file, or one slice of a universal file; with
    /// `supplementary`, the file its `.gnu_debugaltlink` or `.debug_sup` names (``DebugFileLocator`` finds it), whose
    /// strings and DIEs dwz's forms point to. Without it (or when it cannot be read) names that lie there are missing.
    /// - Throws: ``DWARFError/Code/noDebugInfo`` when it has none, ``DWARFError/Code/malformed`` when the headers of
    ///   its list sections are damaged (offsets into them cannot be trusted), ``DWARFError/Code/cannotOpen`` when
    ///   it cannot be mapped.
    package init(object: ObjectFile, supplementary: ObjectFile? = nil) throws(DWARFError) {
        self.path = object.path
        self.object = object
        let access = try SectionAccess(object: object)
        if let problem = ListSectionValidator.problem(in: access, object: object) {
            throw DWARFError(.malformed, path: object.path, detail: "\(problem) (its DWARF is not read)")
        }
        var common: SupplementaryDWARF?
        var problem: String?
        if let supplementary {
            do { common = try SupplementaryDWARF(object: supplementary) } catch {
                problem = "its dwz common file cannot be read (\(error.description)); names it holds are missing"
            }
        }
        supplementaryProblem = problem
        sections = DebugSections(access, supplementary: common)
        headers = UnitHeaders(sections.info)
        nameResolver = FunctionNameResolver(sections: sections, headers: headers)
    }

    /// Opens the DWARF of the (thin) file at `path`.
    package convenience init(path: String) throws(DWARFError) {
        let object: ObjectFile
        do { object = try ObjectFileReader.read(path: path) } catch {
            throw DWARFError(.cannotOpen, path: path, detail: error.description)
        }
        try self.init(object: object)
    }

    /// Every compile unit with the address ranges it covers.
    /// - Parameter withNames: read each unit's name and producer too. Lookups need neither, and in a binary of
    ///   many units the names lie all over `.debug_str` (reading them mapped most of a Swift binary's 7 MB of it).
    /// - Throws: ``DWARFError/Code/malformed`` when a unit header cannot be read.
    /// - Complexity: O(units): one DIE each.
    /// - Parameter threads: how many threads read the unit DIEs, each every `threads`-th unit, when there are enough
    ///   of them (``unitsWorthSharing``): where no `.debug_aranges` names the units' ranges, a lookup waits for all
    ///   of them.
    package func compileUnits(withNames: Bool = true, threads: Int = 1) throws(DWARFError) -> [CompileUnit] {
        try checkHeadersRead()
        // Type units describe types only; their code lives in the compile units. A unit whose abbreviations or
        // unit DIE cannot be read is left out.
        let compiled = headers.headers.filter { !$0.describesTypesOnly }
        let sections = self.sections
        let unit = { @Sendable (header: UnitHeader) -> CompileUnit? in
            (try? UnitReader(sections, header: header, unitDIEOnly: true))?.compileUnit(withNames: withNames)
        }
        guard threads > 1, compiled.count >= Self.unitsWorthSharing else { return compiled.compactMap(unit) }
        let read = Mutex([CompileUnit?](repeating: nil, count: compiled.count))
        DispatchQueue.concurrentPerform(iterations: threads) { lane in
            let mine = stride(from: lane, to: compiled.count, by: threads).map { ($0, unit(compiled[$0])) }
            read.withLock { units in
                for (position, unit) in mine { units[position] = unit }
            }
        }
        return read.withLock { $0.compactMap { $0 } }
    }

    /// Below this many units, starting threads to read their DIEs costs more than it saves.
    static let unitsWorthSharing = 32

    /// Throws when a unit header could not be read: offsets past it cannot be trusted.
    private func checkHeadersRead() throws(DWARFError) {
        guard let offset = headers.unreadableAt else { return }
        throw DWARFError(
            .malformed, path: path,
            detail:
                "unit header at offset 0x\(String(offset, radix: 16)) (after \(headers.headers.count) units) cannot be read"
        )
    }

    /// Every unit that is not a type unit, as its header alone describes it (no DIE read: no name, directory or
    /// ranges), in the order of `.debug_info`: the positions lookups and the index cache number units by. A unit whose
    /// DIE turns out unreadable keeps its position; reading it fails.
    /// - Throws: ``DWARFError/Code/malformed`` when a unit header cannot be read.
    /// - Complexity: O(units), no byte of a DIE read.
    package func unitsByHeader() throws(DWARFError) -> [CompileUnit] {
        try checkHeadersRead()
        return headers.headers.filter { !$0.describesTypesOnly }.map { header in
            CompileUnit(
                dieOffset: UInt64(header.firstDIE), version: header.version, name: nil, compilationDirectory: nil,
                producer: nil, ranges: [])
        }
    }

    /// The ranges `.debug_aranges` assigns to units, by the offset of each unit's DIE; empty when the
    /// file has none (clang and swiftc write none).
    /// - Complexity: O(entries of `.debug_aranges`).
    package func addressRangesByUnit() -> [(range: AddressRange, unitDIEOffset: UInt64)] {
        ArangesReader.ranges(sections, headers: headers)
    }

    /// ``addressRangesByUnit()``, and the unit DIEs `.debug_aranges` gives a set to: a unit with no code has one with no
    /// ranges, and a unit with none is one the file says nothing of there.
    package func addressRangeSets() -> (ranges: [(range: AddressRange, unitDIEOffset: UInt64)], units: Set<UInt64>) {
        ArangesReader.sets(sections, headers: headers)
    }

    /// `record` with its name, linkage name and declaration line completed through its origin and
    /// specification DIEs (``FunctionRecord/nameOrigin``).
    /// - Complexity: one DIE lookup per reference not followed before.
    package func completingNames(_ record: FunctionRecord) -> FunctionRecord {
        nameResolver.completing(record)
    }

    /// The functions, inlined copies and line table of `unit`; a record's names are only those its own
    /// DIE states until ``completingNames(_:)`` completes them.
    /// - Complexity: O(DIEs and line rows of the unit).
    package func contents(of unit: CompileUnit) throws(DWARFError) -> UnitContents {
        try readContents(of: unit, targets: nil)
    }

    /// What `unit` says about `address` alone: ``contents(of:holdingAnyOf:)`` for one address.
    package func contents(of unit: CompileUnit, at address: FileAddress) throws(DWARFError) -> UnitContents {
        try contents(of: unit, holdingAnyOf: AddressTargets([address]))
    }

    /// What `unit` says about `targets` alone: only the subprograms whose code holds one of them (with their inlined
    /// copies), and of the line table only the rows lookups of them read. Subprograms that hold none are skipped
    /// without reading below them, and other rows are not kept, which makes a few lookups in a large unit much cheaper
    /// than ``contents(of:)``. Each kept sequence keeps its first row and end, and for each target the row that
    /// covers it and the row after it (where the covering row ends): a lookup of a target in the result answers as
    /// in the whole table; a lookup of any other address may not.
    /// - Complexity: O(top-level DIEs of the unit + DIEs of the matching subprograms + line rows).
    package func contents(of unit: CompileUnit, holdingAnyOf targets: AddressTargets) throws(DWARFError) -> UnitContents
    {
        try readContents(of: unit, targets: targets)
    }

    private func readContents(of unit: CompileUnit, targets: AddressTargets?) throws(DWARFError) -> UnitContents {
        let reader: UnitReader
        do throws(UnitReader.Failure) {
            reader = try UnitReader(sections, headers: headers, unitDIE: unit.dieOffset)
        } catch {
            throw DWARFError(
                .malformed, path: path, detail: "unit at offset 0x\(String(unit.dieOffset, radix: 16)): \(error.detail)"
            )
        }
        // A unit known by its header alone (``unitsByHeader()``) has its directory from the DIE just read.
        let directory = unit.compilationDirectory ?? reader.string(reader.unitAttributes[.compilationDirectory])
        let lineTable = try readLineTable(
            at: reader.statementList, compilationDirectory: directory ?? "", targets: targets)
        var collector = FunctionCollector(unit: reader, files: lineTable.files, targets: targets)
        collector.collect()
        if let damage = collector.damage {
            throw DWARFError(
                .malformed, path: path, detail: "unit at offset 0x\(String(unit.dieOffset, radix: 16)): \(damage)")
        }
        return UnitContents(functions: collector.functions, lineTable: lineTable)
    }

    /// The unit's line table, from its `DW_AT_stmt_list`; empty when it has none.
    private func readLineTable(at offset: UInt64?, compilationDirectory: String, targets: AddressTargets?)
        throws(DWARFError) -> LineTable
    {
        guard let offset else { return .empty }
        guard let program = sections.lineProgram else {
            throw DWARFError(
                .malformed, path: path,
                detail: "line table at offset 0x\(String(offset, radix: 16)): there is no .debug_line")
        }
        do throws(LineProgramReader.Failure) {
            return try program.lineTable(
                at: Int(clamping: offset), compilationDirectory: compilationDirectory, keepingRowsFor: targets)
        } catch {
            throw DWARFError(
                .malformed, path: path, detail: "line table at offset 0x\(String(offset, radix: 16)): \(error.detail)")
        }
    }
}
