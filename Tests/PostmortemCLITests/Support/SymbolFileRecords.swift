import Foundation

/// The records of a Breakpad symbol file as sets, for comparing two writers' files record by record: files and inline
/// origins by name (each writer numbers them its own way), addresses and sizes as written.
struct SymbolFileRecords {
    var module = ""
    /// Record kind → the records of that kind, each as a string.
    var records: [String: Set<String>] = [:]

    /// The records of `text`; source paths below `workingDirectory` (where a writer that makes relative paths absolute
    /// against its own directory ran) are taken as relative ones.
    /// With `droppingDotComponents`, `./` components of source paths are left out (dump_syms writes a dSYM's paths
    /// joined to its `.` compilation directory as they are: `././main.c`).
    init(text: String, workingDirectory: String? = nil, droppingDotComponents: Bool = false) {
        func relative(_ written: String) -> String {
            let path =
                droppingDotComponents
                ? written.split(separator: "/", omittingEmptySubsequences: false).filter { $0 != "." }.joined(
                    separator: "/") : written
            guard let workingDirectory else { return path }
            if path == workingDirectory { return "." }
            return path.hasPrefix(workingDirectory + "/") ? String(path.dropFirst(workingDirectory.count + 1)) : path
        }
        var files: [String: String] = [:]
        var origins: [String: String] = [:]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        for line in lines {
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            if fields.first == "FILE", fields.count == 3 { files[fields[1]] = relative(fields[2]) }
            if fields.first == "INLINE_ORIGIN", fields.count == 3 { origins[fields[1]] = fields[2] }
        }
        var function: String?
        var initRow: String?
        func add(_ kind: String, _ record: String) { records[kind, default: []].insert(record) }
        for line in lines {
            var fields = line.split(separator: " ").map(String.init)
            switch fields.first {
            case "MODULE": module = line
            case "FUNC":
                if fields.count > 1, fields[1] == "m" { fields.remove(at: 1) }
                guard fields.count >= 4 else { continue }
                function = fields[1]
                add("FUNC range", "\(fields[1]) \(fields[2])")
                add("FUNC name", "\(fields[1]) \(fields[4...].joined(separator: " "))")
            case "PUBLIC":
                if fields.count > 1, fields[1] == "m" { fields.remove(at: 1) }
                guard fields.count >= 3 else { continue }
                function = nil
                add("PUBLIC address", fields[1])
                add("PUBLIC name", "\(fields[1]) \(fields[3...].joined(separator: " "))")
            case "INLINE":
                guard fields.count >= 7, let function else { continue }
                add(
                    "INLINE",
                    "\(function) depth \(fields[1]) line \(fields[2]) file \(files[fields[3]] ?? "?") ranges \(fields[5...].joined(separator: " "))"
                )
                add(
                    "INLINE origin",
                    "\(function) depth \(fields[1]) ranges \(fields[5...].joined(separator: " ")) \(origins[fields[4]] ?? "?")"
                )
            case "STACK":
                guard fields.count >= 4, fields[1] == "CFI" else { continue }
                if fields[2] == "INIT" {
                    initRow = fields[3]
                    add("STACK CFI INIT", fields[3...].joined(separator: " "))
                } else {
                    add("STACK CFI", "\(initRow ?? "?") \(fields[2...].joined(separator: " "))")
                }
            case "INFO", "FILE", "INLINE_ORIGIN": continue
            default:
                guard fields.count == 4, let function else { continue }
                add("line", "\(function) \(fields[0]) \(fields[1]) \(fields[2]) \(files[fields[3]] ?? "?")")
            }
        }
    }

    /// The share of `kind`'s records in either file that both hold (1 when neither has any), and a few records only
    /// one holds.
    func agreement(with other: SymbolFileRecords, on kind: String) -> (
        share: Double, onlyHere: [String], onlyThere: [String]
    ) {
        let mine = records[kind] ?? [], theirs = other.records[kind] ?? []
        let union = mine.union(theirs).count
        let share = union == 0 ? 1 : Double(mine.intersection(theirs).count) / Double(union)
        return (
            share, Array(mine.subtracting(theirs).sorted().prefix(5)),
            Array(theirs.subtracting(mine).sorted().prefix(5))
        )
    }
}
