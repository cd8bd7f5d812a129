import ObjectFiles
import PostmortemCore
import Synchronization

/// What gdb's `info line *ADDRESS` says of an address: its line, the file as gdb names it, and the addresses the
/// line's row covers (to the next row of any file of the unit, or the unit's next file's start).
package struct GDBLineAnswer: Hashable, Sendable {
    /// The line number.
    package var line: Int
    /// The file, as gdb names it.
    package var file: String
    /// The first address of the line's row.
    package var start: FileAddress
    /// Where the row ends; `nil` when gdb would not say.
    package var end: FileAddress?
}

/// What gdb's answers read once and ask again for many addresses in a row: the units, each unit's line table as gdb
/// builds it, and each unit's functions that are not inlined.
struct GDBMemo: Sendable {
    var units: [CompileUnit]?
    var lineTables: [UInt64: GDBLineTable?] = [:]
    /// Each unit's functions that are not inlined, by range, sorted by start (one range each per part of the function).
    var functions: [UInt64: [(range: AddressRange, record: FunctionRecord)]] = [:]
}

extension DWARFFile {
    /// gdb's answer to `info line *address` (``GDBLineTable``): `nil` when gdb has no line there (no unit holds the
    /// address, or its row is an end marker).
    package func gdbLine(at address: FileAddress) throws(DWARFError) -> GDBLineAnswer? {
        guard let unit = try unit(containing: address, withNames: true) else { return nil }
        let table: GDBLineTable?
        if let known = gdbMemo.withLock({ $0.lineTables[unit.dieOffset] }) {
            table = known
        } else {
            table = try gdbLineTable(of: unit)
            gdbMemo.withLock { $0.lineTables[unit.dieOffset] = .some(table) }
        }
        guard let table, let found = table.line(at: address.rawValue) else { return nil }
        // With no row after it, gdb ends the range where the unit's code ends.
        let end = found.end ?? unit.ranges.map(\.upperBound.rawValue).max()
        return GDBLineAnswer(
            line: found.line, file: found.file, start: FileAddress(found.start), end: end.map { FileAddress($0) })
    }

    /// The unit whose code holds `address`: by the ranges its DIE states, else by `.debug_aranges` (a strict DWARF 2
    /// unit with code in several sections states less than it has).
    private func unit(containing address: FileAddress, withNames: Bool) throws(DWARFError) -> CompileUnit? {
        let units: [CompileUnit]
        if let known = gdbMemo.withLock({ $0.units }) {
            units = known
        } else {
            units = try compileUnits(withNames: true)
            gdbMemo.withLock { $0.units = units }
        }
        if let unit = units.first(where: { $0.ranges.contains { $0.contains(address) } }) { return unit }
        guard let offset = addressRangesByUnit().first(where: { $0.range.contains(address) })?.unitDIEOffset else {
            return nil
        }
        return units.first { $0.dieOffset == offset }
    }

    /// The unit's line table as gdb builds it; `nil` when it has none.
    private func gdbLineTable(of unit: CompileUnit) throws(DWARFError) -> GDBLineTable? {
        let reader: UnitReader
        do throws(UnitReader.Failure) {
            reader = try UnitReader(sections, headers: headers, unitDIE: unit.dieOffset)
        } catch {
            throw DWARFError(
                .malformed, path: path, detail: "unit at offset 0x\(String(unit.dieOffset, radix: 16)): \(error.detail)"
            )
        }
        guard let offset = reader.statementList, let program = sections.lineProgram else { return nil }
        let compilationDirectory = unit.compilationDirectory ?? ""
        let header: LineProgramReader.Header
        do throws(LineProgramReader.Failure) {
            header = try program.readHeader(at: Int(clamping: offset), compilationDirectory: compilationDirectory)
        } catch {
            throw DWARFError(
                .malformed, path: path, detail: "line table at offset 0x\(String(offset, radix: 16)): \(error.detail)")
        }
        let names = GDBFileNames.names(
            header.entries, isVersion5: header.isVersion5, compilationDirectory: compilationDirectory)
        let primary = unit.name.map { ($0, GDBFileNames.identity($0, compilationDirectory: compilationDirectory)) }
        var builder = GDBLineTableBuilder(names: names, primary: primary)
        program.run(header, into: &builder)
        return builder.table()
    }
}

/// File names as gdb gives them (`dwarf2_start_subfile`): a relative name below its include directory as the line
/// table writes it (not joined with the compile directory); files told apart by their full paths.
enum GDBFileNames {
    static func names(_ entries: LineTableFiles.Entries, isVersion5: Bool, compilationDirectory: String) -> [(
        shown: String, identity: String
    )?] {
        var names: [(shown: String, identity: String)?] = isVersion5 ? [] : [nil]
        for (name, directoryIndex) in entries.files {
            var shown = name
            if !name.hasPrefix("/") {
                // Before DWARF 5 directory 0 is the compile directory, which gdb does not put before the name.
                let index = isVersion5 ? Int(directoryIndex) : Int(directoryIndex) - 1
                if index >= 0, index < entries.directories.count {
                    shown = FilePath.join(entries.directories[index], name)
                }
            }
            names.append((shown, identity(shown, compilationDirectory: compilationDirectory)))
        }
        return names
    }

    /// The full path a name stands for: below the compile directory when relative. Compared as text, as gdb's
    /// `start_subfile` compares them: `/usr/lib/gcc/…/../../../../include/c++/12/new` and `/usr/include/c++/12/new` are
    /// two files to gdb, each with its own table.
    static func identity(_ name: String, compilationDirectory: String) -> String {
        name.hasPrefix("/") || compilationDirectory.isEmpty ? name : compilationDirectory + "/" + name
    }
}

extension DWARFFile {
    /// The function gdb names an address after (`find_pc_function`): the one, not inlined, whose code holds it, with
    /// its linkage name (the mangled one, as gdb prints it in `<name+offset>`) and its entry, the start of its first
    /// range as the DWARF lists them (a function split into a `.cold` part enters at its main part).
    package func gdbFunction(at address: FileAddress) throws(DWARFError) -> (name: String, entry: FileAddress)? {
        guard let unit = try unit(containing: address, withNames: false) else { return nil }
        let functions: [(range: AddressRange, record: FunctionRecord)]
        if let known = gdbMemo.withLock({ $0.functions[unit.dieOffset] }) {
            functions = known
        } else {
            functions = try contents(of: unit).functions.filter { !$0.isInlined }
                .flatMap { record in record.ranges.map { (range: $0, record: record) } }
                .sorted { $0.range.lowerBound < $1.range.lowerBound }
            gdbMemo.withLock { $0.functions[unit.dieOffset] = functions }
        }
        // The last range starting at or before the address, and the ones before it that may still hold it.
        var low = 0, high = functions.count
        while low < high {
            let middle = (low + high) / 2
            if functions[middle].range.lowerBound <= address { low = middle + 1 } else { high = middle }
        }
        guard let record = functions[..<low].last(where: { $0.range.contains(address) })?.record,
            let entry = record.ranges.first?.lowerBound
        else { return nil }
        let named = completingNames(record)
        if let linkageName = named.linkageName { return (linkageName, entry) }
        guard let name = named.name else { return nil }
        return (physicalName(of: name, enteredAt: entry, in: unit), entry)
    }

    /// gdb's name for a function without a linkage name: in C++, with its parameter types (``GDBPhysicalName``).
    private func physicalName(of name: String, enteredAt entry: FileAddress, in unit: CompileUnit) -> String {
        guard let reader = try? UnitReader(sections, headers: headers, unitDIE: unit.dieOffset),
            let unitDIE = reader.die(at: Int(unit.dieOffset), wanted: AttributeSlot.mask(.language)),
            let language = reader.unsigned(unitDIE.attributes[.language]), GDBPhysicalName.isCPlusPlus(language)
        else { return name }
        var found = name
        let naming = GDBPhysicalName(unit: reader) { [sections, headers] offset, inCommonFile in
            guard inCommonFile else {
                return headers.unit(holding: offset).flatMap { try? UnitReader(sections, header: $0) }
            }
            guard let common = sections.supplementary else { return nil }
            return common.headers.unit(holding: offset).flatMap { try? UnitReader(common.sections, header: $0) }
        }
        reader.forEachChild(of: unitDIE, wanted: AttributeSlot.mask(.name, .lowPC, .highPC, .ranges)) { die in
            guard die.tag == 0x2E, reader.string(die.attributes[.name]) == name, // DW_TAG_subprogram
                reader.ranges(die.attributes).first?.lowerBound == entry
            else { return true }
            found = naming.name(of: die, named: name)
            return false
        }
        return found
    }
}
