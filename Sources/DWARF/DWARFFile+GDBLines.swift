internal import CLibDwarf
public import ObjectFiles

/// What gdb's `info line *ADDRESS` says of an address: its line, the file as gdb names it, and the addresses the
/// line's row covers (to the next row of any file of the unit, or the unit's next file's start).
public struct GDBLineAnswer: Hashable, Sendable {
    public var line: Int
    public var file: String
    public var start: FileAddress
    public var end: FileAddress?
}

extension DWARFFile {
    /// gdb's answer to `info line *address` (``GDBLineTable``): `nil` when gdb has no line there (no unit holds the
    /// address, or its row is an end marker).
    public func gdbLine(at address: FileAddress) throws(DWARFError) -> GDBLineAnswer? {
        guard let unit = try unit(containing: address, withNames: true) else { return nil }
        return try gdbLine(at: address, in: unit)
    }

    /// The unit whose code holds `address`: by the ranges its DIE states, else by `.debug_aranges` (a strict DWARF 2
    /// unit with code in several sections states less than it has).
    private func unit(containing address: FileAddress, withNames: Bool) throws(DWARFError) -> CompileUnit? {
        let units = try compileUnits(withNames: withNames)
        if let unit = units.first(where: { $0.ranges.contains { $0.contains(address) } }) { return unit }
        guard let offset = addressRangesByUnit().first(where: { $0.range.contains(address) })?.unitDIEOffset else { return nil }
        return units.first { $0.dieOffset == offset }
    }

    private func gdbLine(at address: FileAddress, in unit: CompileUnit) throws(DWARFError) -> GDBLineAnswer? {
        try handle.run { () throws(DWARFError) -> GDBLineAnswer? in
            var error: Dwarf_Error?
            var unitDIE: Dwarf_Die?
            guard dwarf_offdie_b(handle.debug, unit.dieOffset, 1, &unitDIE, &error) == DW_DLV_OK, let unitDIE else {
                throw handle.failure(error, "unit at offset 0x\(String(unit.dieOffset, radix: 16))")
            }
            defer { dwarf_dealloc_die(unitDIE) }
            let reader = DIEReader(handle: handle, version: unit.version, unitBase: 0)
            guard let offset = reader.reference(unitDIE, DW_AT_stmt_list) ?? reader.unsigned(unitDIE, DW_AT_stmt_list),
                  let section = handle.access.section(named: ".debug_line") else { return nil }
            let program = LineProgramReader(section: section, lineStrings: handle.access.section(named: ".debug_line_str"),
                                            strings: handle.access.section(named: ".debug_str"))
            let compilationDirectory = unit.compilationDirectory ?? ""
            let header: LineProgramReader.Header
            do throws(LineProgramReader.Failure) {
                header = try program.readHeader(at: Int(clamping: offset), compilationDirectory: compilationDirectory)
            } catch {
                throw DWARFError(.malformed, path: path, detail: "line table at offset 0x\(String(offset, radix: 16)): \(error.detail)")
            }
            let names = GDBFileNames.names(header.entries, isVersion5: header.isVersion5, compilationDirectory: compilationDirectory)
            let primary = unit.name.map { ($0, GDBFileNames.identity($0, compilationDirectory: compilationDirectory)) }
            var builder = GDBLineTableBuilder(names: names, primary: primary)
            program.run(header, into: &builder)
            guard let found = builder.table().line(at: address.rawValue) else { return nil }
            // With no row after it, gdb ends the range where the unit's code ends.
            let end = found.end ?? unit.ranges.map(\.upperBound.rawValue).max()
            return GDBLineAnswer(line: found.line, file: found.file, start: FileAddress(found.start), end: end.map { FileAddress($0) })
        }
    }
}

/// File names as gdb gives them (`dwarf2_start_subfile`): a relative name below its include directory as the line
/// table writes it (not joined with the compile directory); files told apart by their full paths.
enum GDBFileNames {
    static func names(_ entries: LineTableFiles.Entries, isVersion5: Bool, compilationDirectory: String) -> [(shown: String, identity: String)?] {
        var names: [(shown: String, identity: String)?] = isVersion5 ? [] : [nil]
        for (name, directoryIndex) in entries.files {
            var shown = name
            if !name.hasPrefix("/") {
                // Before DWARF 5 directory 0 is the compile directory, which gdb does not put before the name.
                let index = isVersion5 ? Int(directoryIndex) : Int(directoryIndex) - 1
                if index >= 0, index < entries.directories.count { shown = join(entries.directories[index], name) }
            }
            names.append((shown, identity(shown, compilationDirectory: compilationDirectory)))
        }
        return names
    }

    /// The full path a name stands for: below the compile directory when relative, `.` and empty parts dropped.
    static func identity(_ name: String, compilationDirectory: String) -> String {
        let full = name.hasPrefix("/") ? name : join(compilationDirectory, name)
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return (full.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// gdb's `path_join`: one `/` between the parts.
    static func join(_ directory: String, _ name: String) -> String {
        guard !directory.isEmpty else { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

extension DWARFFile {
    /// The function gdb names an address after (`find_pc_function`): the one, not inlined, whose code holds it, with
    /// its linkage name (the mangled one, as gdb prints it in `<name+offset>`) and its entry, the start of its first
    /// range as the DWARF lists them (a function split into a `.cold` part enters at its main part).
    public func gdbFunction(at address: FileAddress) throws(DWARFError) -> (name: String, entry: FileAddress)? {
        guard let unit = try unit(containing: address, withNames: false) else { return nil }
        let contents = try contents(of: unit, at: address)
        guard let record = contents.functions.first(where: { !$0.isInlined && $0.ranges.contains { $0.contains(address) } }),
              let entry = record.ranges.first?.lowerBound else { return nil }
        let named = completingNames(record)
        guard let name = named.linkageName ?? named.name else { return nil }
        return (name, entry)
    }
}
