import ObjectFiles
import PostmortemCore

/// elfutils' client cache, shared with gdb and elfutils' tools: `<cache>/<build-id>/debuginfo`, `…/executable` and
/// `…/source##usr##src##x.c` (each `/` of the path as `##`, each `#` as `#_`). Finished files are read-only (0400);
/// a file with no permissions at all (000) records a miss, believed for `cache_miss_s` seconds (600 by default).
struct DebuginfodCache: Sendable {
    let directory: String

    /// What the cache holds for one artifact.
    enum Entry: Equatable {
        case file(String)
        /// Every server said it does not have it, `age` seconds ago.
        case recentMiss(age: Int64)
        case none
    }

    /// How long elfutils' client believes a miss when the cache does not say (`cache_miss_s`).
    static let defaultMissLifetime = 600

    /// The path of `artifact` of `buildID` in the cache.
    func path(of artifact: RemoteArtifact, buildID: BuildID) -> String {
        var name = artifact.kind
        if case .source(let path) = artifact {
            for character in path {
                switch character {
                case "/": name += "##"
                case "#": name += "#_"
                default: name.append(character)
                }
            }
        }
        return directory + "/" + buildID.hex + "/" + name
    }

    /// What the cache holds for `artifact`: a file, a miss still believed (a stale one is removed), or nothing.
    func entry(of artifact: RemoteArtifact, buildID: BuildID) -> Entry {
        let path = path(of: artifact, buildID: buildID)
        guard let permissions = FileSystem.permissions(of: path) else { return .none }
        if permissions & 0o777 == 0 {
            let age = FileSystem.secondsSinceModified(path) ?? .max
            if age <= Int64(missLifetime) { return .recentMiss(age: age) }
            FileSystem.remove(path)
            return .none
        }
        guard FileSystem.isRegularFile(path), (FileSystem.status(path)?.size ?? 0) > 0 else { return .none }
        FileSystem.touch(path)
        return .file(path)
    }

    /// How long a miss is believed: the cache's `cache_miss_s`, else elfutils' default.
    var missLifetime: Int {
        guard let bytes = try? FileSystem.read(directory + "/cache_miss_s", maximumSize: 64),
            let value = Int(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace })
        else {
            return Self.defaultMissLifetime
        }
        return value
    }

    /// Records that no server has `artifact`, as elfutils' client records it.
    func recordMiss(of artifact: RemoteArtifact, buildID: BuildID) {
        guard (try? prepareDirectory(for: buildID)) != nil else { return }
        FileSystem.createEmptyFile(path(of: artifact, buildID: buildID), permissions: 0)
    }

    /// Creates the cache (with elfutils' control files, so that its client cleans it as usual) and the folder of
    /// `buildID`'s files; removes what downloads interrupted long ago left there.
    func prepareDirectory(for buildID: BuildID) throws(FileSystem.Failure) {
        if !FileSystem.isDirectory(directory) {
            try FileSystem.createDirectories(directory)
            for (name, value) in [
                ("cache_clean_interval_s", 86_400), ("max_unused_age_s", 604_800),
                ("cache_miss_s", Self.defaultMissLifetime)
            ] {
                let file = try FileSystem.AtomicFile(path: directory + "/" + name)
                try file.append(Array("\(value)\n".utf8))
                try file.commit()
            }
        }
        let folder = directory + "/" + buildID.hex
        try FileSystem.createDirectories(folder)
        for entry in FileSystem.entries(of: folder) where entry.name.contains(".tmp-") {
            let path = folder + "/" + entry.name
            if let age = FileSystem.secondsSinceModified(path), age > Self.staleTemporaryAge { FileSystem.remove(path) }
        }
    }

    /// A temporary file older than this is left over from a process that ended mid-download.
    static let staleTemporaryAge: Int64 = 3_600
}
