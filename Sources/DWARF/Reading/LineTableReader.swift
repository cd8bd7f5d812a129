internal import CLibDwarf
import ObjectFiles

/// Copies a unit's line table (`.debug_line`, versions 2 to 5) into a ``LineTable``.
enum LineTableReader {
    /// - Parameter sequencesWithDefaultFile: for DWARF 5 tables, which sequences start before any
    ///   `DW_LNS_set_file` (see ``LineProgramProbe``); `nil` when that cannot be told.
    static func lineTable(_ unitDIE: Dwarf_Die, compilationDirectory: String?, _ handle: DebugHandle,
                          sequencesWithDefaultFile: () -> [Bool]?) throws(DWARFError) -> LineTable {
        var tableVersion: Dwarf_Unsigned = 0
        var tableCount: Dwarf_Small = 0
        var context: Dwarf_Line_Context?
        var error: Dwarf_Error?
        let result = dwarf_srclines_b(unitDIE, &tableVersion, &tableCount, &context, &error)
        if result == DW_DLV_NO_ENTRY { return .empty }
        guard result == DW_DLV_OK, let context else { throw handle.failure(error, "line table") }
        defer { dwarf_srclines_dealloc_b(context) }

        let files = fileNames(context, lineTableVersion: Int(tableVersion), compilationDirectory: compilationDirectory ?? "", handle)
        var lines: UnsafeMutablePointer<Dwarf_Line?>?
        var count: Dwarf_Signed = 0
        guard dwarf_srclines_from_linecontext(context, &lines, &count, &error) == DW_DLV_OK, let lines else {
            throw handle.failure(error, "line table rows")
        }
        var sequences: [LineSequence] = []
        var rows: [LineRow] = []
        // libdwarf starts each DWARF 5 sequence with the file register at 0; DWARF 5 starts it at 1.
        let defaultFileFlags = tableVersion >= 5 ? sequencesWithDefaultFile() ?? [] : []
        var sequenceIndex = 0
        var mendsDefaultFile = defaultFileFlags.first ?? false
        for line in UnsafeBufferPointer(start: lines, count: Int(max(count, 0))) {
            guard let line else { continue }
            var address: Dwarf_Addr = 0
            var number: Dwarf_Unsigned = 0
            var column: Dwarf_Unsigned = 0
            var file: Dwarf_Unsigned = 0
            var isEnd: Dwarf_Bool = 0
            guard dwarf_lineaddr(line, &address, &error) == DW_DLV_OK,
                  dwarf_lineendsequence(line, &isEnd, &error) == DW_DLV_OK else {
                handle.discard(error)
                error = nil
                continue
            }
            if isEnd != 0, !hasEpilogueBegin(line, handle) {
                if !rows.isEmpty { sequences.append(LineSequence(rows: rows, endAddress: FileAddress(address))) }
                rows = []  // not removeAll(keepingCapacity:): the buffer is shared with the sequence just stored
                sequenceIndex += 1
                mendsDefaultFile = sequenceIndex < defaultFileFlags.count && defaultFileFlags[sequenceIndex]
                continue
            }
            if dwarf_lineno(line, &number, &error) != DW_DLV_OK { handle.discard(error); error = nil }
            if dwarf_lineoff_b(line, &column, &error) != DW_DLV_OK { handle.discard(error); error = nil }
            if dwarf_line_srcfileno(line, &file, &error) != DW_DLV_OK { handle.discard(error); error = nil }
            if mendsDefaultFile { if file == 0 { file = 1 } else { mendsDefaultFile = false } }
            rows.append(LineRow(
                address: FileAddress(address), file: UInt32(truncatingIfNeeded: file),
                line: UInt32(truncatingIfNeeded: number), column: UInt32(truncatingIfNeeded: column)))
        }
        // A table cut short keeps its last rows, ending at the last address seen.
        if let last = rows.last { sequences.append(LineSequence(rows: rows, endAddress: last.address.advanced(by: 1) ?? last.address)) }
        return LineTable(sequences: sequences, files: files)
    }

    /// libdwarf 20210528 reports `DW_LNS_set_epilogue_begin` rows (swiftc and clang emit them) as
    /// `end_sequence` too. A real end of sequence never carries the epilogue flag (the flags are reset
    /// after each row and nothing sets them before `DW_LNE_end_sequence`), so such a row is an ordinary one.
    static func hasEpilogueBegin(_ line: Dwarf_Line, _ handle: DebugHandle) -> Bool {
        var prologueEnd: Dwarf_Bool = 0
        var epilogueBegin: Dwarf_Bool = 0
        var isa: Dwarf_Unsigned = 0
        var discriminator: Dwarf_Unsigned = 0
        var error: Dwarf_Error?
        guard dwarf_prologue_end_etc(line, &prologueEnd, &epilogueBegin, &isa, &discriminator, &error) == DW_DLV_OK else {
            handle.discard(error)
            return false
        }
        return epilogueBegin != 0
    }

    /// The unit's file paths, indexed by the numbers rows and `DW_AT_call_file` use: from 0 in
    /// DWARF 5, from 1 before it (index 0 is then empty).
    ///
    /// Paths are joined as llvm-symbolizer joins them: a relative name goes below its include
    /// directory, and a relative include directory below the compile directory (except DWARF 5's
    /// directory 0, which already is the compile directory).
    static func fileNames(_ context: Dwarf_Line_Context, lineTableVersion: Int, compilationDirectory: String,
                          _ handle: DebugHandle) -> [String] {
        let isVersion5 = lineTableVersion >= 5
        var error: Dwarf_Error?
        var directoryCount: Dwarf_Signed = 0
        if dwarf_srclines_include_dir_count(context, &directoryCount, &error) != DW_DLV_OK { handle.discard(error); error = nil }
        // libdwarf 20210528 numbers DWARF 2-4 include directories from 1 (the table's first entry),
        // and DWARF 5 ones by the table's own numbers, from 0.
        var directories: [String] = []
        if directoryCount > 0 {
            for index in (isVersion5 ? 0..<directoryCount : 1..<directoryCount + 1) {
                var name: UnsafePointer<CChar>?
                if dwarf_srclines_include_dir_data(context, index, &name, &error) == DW_DLV_OK, let name {
                    directories.append(String(cString: name))
                } else {
                    handle.discard(error)
                    error = nil
                    directories.append("")
                }
            }
        }
        var base: Dwarf_Signed = 0, count: Dwarf_Signed = 0, end: Dwarf_Signed = 0
        guard dwarf_srclines_files_indexes(context, &base, &count, &end, &error) == DW_DLV_OK, base >= 0, end >= base else {
            handle.discard(error)
            return []
        }
        var files: [String] = Array(repeating: "", count: Int(base))
        for index in base..<end {
            var name: UnsafePointer<CChar>?
            var directoryIndex: Dwarf_Unsigned = 0
            var modificationTime: Dwarf_Unsigned = 0
            var length: Dwarf_Unsigned = 0
            var md5: UnsafeMutablePointer<Dwarf_Form_Data16>?
            guard dwarf_srclines_files_data_b(context, index, &name, &directoryIndex, &modificationTime, &length, &md5, &error) == DW_DLV_OK,
                  let name else {
                handle.discard(error)
                error = nil
                files.append("")
                continue
            }
            let fileName = String(cString: name)
            if fileName.hasPrefix("/") { files.append(fileName); continue }
            var includeDirectory = ""
            if isVersion5 {
                if directoryIndex < directories.count { includeDirectory = directories[Int(directoryIndex)] }
            } else if directoryIndex > 0, directoryIndex <= directories.count {
                includeDirectory = directories[Int(directoryIndex) - 1]
            }
            var components: [String] = []
            if (!isVersion5 || directoryIndex != 0), !includeDirectory.hasPrefix("/") { components.append(compilationDirectory) }
            components += [includeDirectory, fileName]
            files.append(joinPath(components))
        }
        return files
    }

    /// Joins path components with `/`, skipping empty ones, as llvm's `sys::path::append` does.
    static func joinPath(_ components: [String]) -> String {
        var path = ""
        for component in components where !component.isEmpty {
            if !path.isEmpty, !path.hasSuffix("/"), !component.hasPrefix("/") { path += "/" }
            path += component
        }
        return path
    }
}
