import CrashLogs
import ObjectFiles
import PostmortemCore
import Synchronization

/// Reads the source lines around each resolved frame's line (`--source-context N`), from the files the debug
/// information names, after `--source-map FROM=TO` rewrote their paths (gdb's `set substitute-path`, lldb's
/// `target.source-map`); a file not found here is fetched by the build-id of the debug information that named it
/// when debuginfod is set up. Each file is read once a run; files that cannot be read are counted, for one line at the end.
/// Used from any thread (a run's logs are symbolicated on every core).
final class SourceContextReader: Sendable {
    /// How many lines before and after.
    let context: Int
    /// Path prefixes and what they stand for, the first match applying.
    let mappings: [(from: String, to: String)]
    private struct State {
        /// Each file's lines by the path it was read at; `nil` for a file that could not be read.
        var files: [String: [Substring]?] = [:]
        /// The files not found, in the order first met, and how many frames wanted each.
        var missing: [(path: String, frames: Int)] = []
    }
    private let state = Mutex(State())

    /// The most bytes of one source file read (a generated file may be large; lines past it stay unread).
    static let maximumFileSize = 16 << 20

    /// Where a source file missing here is fetched from (debuginfod), if anywhere: the run's one client, known once
    /// the command has opened its images.
    let remote: RemoteDebugFileSource?

    init(context: Int, mappings: [(from: String, to: String)], remote: RemoteDebugFileSource? = nil) {
        self.context = context
        self.mappings = mappings
        self.remote = remote
    }

    /// The same reader, fetching missing files from `remote`.
    func fetching(from remote: RemoteDebugFileSource?) -> SourceContextReader {
        SourceContextReader(context: context, mappings: mappings, remote: remote)
    }

    /// `FROM=TO`, split at its first `=`; `nil` when it has none or FROM is empty.
    static func mapping(_ text: String) -> (from: String, to: String)? {
        guard let equals = text.firstIndex(of: "="), equals > text.startIndex else { return nil }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// `path` rewritten by the first mapping whose prefix it starts with (a whole path component).
    func mapped(_ path: String) -> String {
        for (from, to) in mappings {
            let prefix = from.hasSuffix("/") ? String(from.dropLast()) : from
            if path == prefix { return to }
            if path.hasPrefix(prefix + "/") {
                return (to.hasSuffix("/") ? String(to.dropLast()) : to) + path.dropFirst(prefix.count)
            }
        }
        return path
    }

    /// Fills in the source of every resolved symbol of `report`; a relative path is looked for from the current
    /// directory, then from the log's.
    func fill(_ report: inout CrashReport, logDirectory: String?) {
        for thread in report.threads.indices {
            for frame in report.threads[thread].frames.indices {
                let buildID = report.threads[thread].frames[frame].resolvedBuildID.flatMap(BuildID.init(hex:))
                fill(&report.threads[thread].frames[frame].symbols, besides: logDirectory, buildID: buildID)
            }
        }
    }

    /// Fills in the source of each of `symbols` (an answer's inline chain); a relative path is looked for from the
    /// current directory, then from `directory` (the binary's); one found nowhere is fetched by `buildID`.
    func fill(_ symbols: inout [SymbolicatedFrame], besides directory: String?, buildID: BuildID?) {
        for index in symbols.indices {
            let symbol = symbols[index]
            // `<compiler-generated>` names no file.
            guard let file = symbol.file, symbol.line > 0, !file.hasSuffix(">") else { continue }
            symbols[index].source = excerpt(
                file, line: symbol.line, column: symbol.column, besides: directory, buildID: buildID)
        }
    }

    private func excerpt(_ file: String, line: Int, column: Int, besides directory: String?, buildID: BuildID?)
        -> SourceExcerpt?
    {
        let path = mapped(file)
        var candidates = [path]
        if !path.hasPrefix("/"), let directory { candidates.append(directory + "/" + path) }
        // debuginfod serves sources by the absolute path the debug information gives.
        if file.hasPrefix("/"), let buildID, let remote, !candidates.contains(where: FileSystem.isRegularFile),
            case .fetched(let fetched, _) = remote.source.fetch(.source(path: file), of: buildID)
        {
            candidates.append(fetched)
        }
        for candidate in candidates {
            guard let lines = lines(of: candidate) else { continue }
            guard line <= lines.count else { return nil }
            let first = max(1, line - context), last = min(lines.count, line + context)
            return SourceExcerpt(
                firstLine: first, lines: lines[(first - 1)..<last].map(String.init), line: line, column: column)
        }
        state.withLock { state in
            if let known = state.missing.firstIndex(where: { $0.path == path }) {
                state.missing[known].frames += 1
            } else {
                state.missing.append((path, 1))
            }
        }
        return nil
    }

    private func lines(of path: String) -> [Substring]? {
        if let known = state.withLock({ $0.files[path] }) { return known }
        var read: [Substring]?
        if FileSystem.isRegularFile(path), let bytes = try? FileSystem.read(path, maximumSize: Self.maximumFileSize) {
            let text = String(decoding: bytes, as: UTF8.self)
            read = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.hasSuffix("\r") ? $0.dropLast() : $0
            }
        }
        state.withLock { $0.files[path] = .some(read) }
        return read
    }

    /// One line for the files that could not be read, or `nil` when every one was.
    func summary() -> String? {
        let missing = state.withLock { $0.missing }
        guard !missing.isEmpty else { return nil }
        let frames = missing.reduce(0) { $0 + $1.frames }
        let named =
            missing.prefix(3).map(\.path).joined(separator: ", ")
            + (missing.count > 3 ? " and \(missing.count - 3) more" : "")
        return
            "no source for \(frames) frame\(frames == 1 ? "" : "s"): \(named) not found; --source-map FROM=TO rewrites the paths the debug information gives"
    }
}
