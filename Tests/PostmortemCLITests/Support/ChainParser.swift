import Foundation

/// One frame as both tools can state it.
struct ComparableFrame: Equatable, CustomStringConvertible {
    var function: String?
    var file: String?
    var line: Int
    var column: Int
    var description: String { "\(function ?? "??") \(file ?? "??"):\(line):\(column)" }
}

/// Reads each tool's JSON answer for one address into its inline chain, innermost first.
enum ChainParser {
    struct Malformed: Error, CustomStringConvertible {
        var line: String
        var description: String { "not a JSON answer: \(line)" }
    }

    private static func object(_ line: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
        if let object = value as? [String: Any] { return object }
        if let array = value as? [[String: Any]], let first = array.first { return first }
        throw Malformed(line: line)
    }

    /// `postmortem resolve --json`: frames with `linkageName`, `file`, `line`, `column`.
    static func postmortem(_ line: String) throws -> [ComparableFrame] {
        let frames = try object(line)["frames"] as? [[String: Any]] ?? []
        return frames.map { frame in
            ComparableFrame(
                function: frame["linkageName"] as? String, file: frame["file"] as? String,
                line: frame["line"] as? Int ?? 0, column: frame["column"] as? Int ?? 0)
        }
    }

    /// One frame of a `symbolicate --json` report: its `symbols`, by linkage name.
    static func reportFrame(_ frame: [String: Any]) -> [ComparableFrame] {
        (frame["symbols"] as? [[String: Any]] ?? []).map {
            ComparableFrame(
                function: $0["linkageName"] as? String, file: $0["file"] as? String,
                line: $0["line"] as? Int ?? 0, column: $0["column"] as? Int ?? 0)
        }
    }

    /// `llvm-symbolizer --output-style=JSON`: `Symbol` entries with `FunctionName`, `FileName`, `Line`, `Column`.
    /// Its placeholders for "unknown" (`??`, `<invalid>`, empty) read as absent.
    static func llvmSymbolizer(_ line: String) throws -> [ComparableFrame] {
        let symbols = try object(line)["Symbol"] as? [[String: Any]] ?? []
        func known(_ value: Any?) -> String? {
            guard let text = value as? String, !text.isEmpty, text != "??", text != "<invalid>" else { return nil }
            return text
        }
        let frames = symbols.map { symbol in
            ComparableFrame(
                function: known(symbol["FunctionName"]), file: known(symbol["FileName"]),
                line: symbol["Line"] as? Int ?? 0, column: symbol["Column"] as? Int ?? 0)
        }
        // llvm-symbolizer answers "nothing" with one empty frame.
        if frames.count == 1, frames[0].function == nil, frames[0].file == nil, frames[0].line == 0 { return [] }
        return frames
    }
}
