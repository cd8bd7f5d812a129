import DWARF
import ObjectFiles
import PostmortemCore

/// Finds the binary of an image a core or dump names, as the symbolicator finds a log's: the file at the path it names,
/// beside the core, below the `-d` folders (by name and build-id), the system's libraries, then debuginfod; each
/// checked against the build-id the core holds before it is used.
package final class BinaryFinder {
    private let locator: BinaryLocator
    /// The folders given with `-d`.
    let debugPaths: [String]
    /// Finds a binary's separate debug file, where call-frame information its binary lacks may be (`.debug_frame`).
    let debugFiles: DebugFileLocator
    private let remote: RemoteDebugFileSource?
    /// The program's binary given with `-e`, if one was.
    package let executable: String?
    /// Where an image whose binary is not found gets its call-frame information otherwise (a Breakpad symbol file's
    /// `STACK CFI` records); `nil`: nowhere.
    package let callFramesWithoutBinary: CallFrameRowsLookup?

    /// A finder searching `debugPaths`; `executable` is the program's binary when the core's path for it is wrong
    /// (eu-stack's `-e`); `remote` fetches binaries missing here by build-id; `callFramesWithoutBinary` gives the
    /// call-frame information of images whose binaries are not found.
    package init(
        debugPaths: [String], executable: String? = nil, remote: RemoteDebugFileSource? = nil,
        callFramesWithoutBinary: CallFrameRowsLookup? = nil
    ) {
        locator = BinaryLocator(debugPaths: debugPaths, object: executable)
        self.debugPaths = debugPaths
        debugFiles = DebugFileLocator(search: DebugFileSearch(roots: debugPaths), remote: remote)
        self.remote = remote
        self.executable = executable
        self.callFramesWithoutBinary = callFramesWithoutBinary
    }

    /// Why no binary was found, in words.
    package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// What was looked at and why each was refused.
        package var description: String
    }

    /// The binary of the image `name` mapped from `path`, of `buildID` when the core holds it.
    package func binary(
        name: String, path: String, buildID: BuildID?, architecture: UnwindArchitecture,
        near directory: String?
    ) -> Result<ObjectFile, Failure> {
        let (candidates, searched) = locator.candidates(
            name: name, path: path, identity: buildID.map(ImageIdentifier.buildID), logDirectory: directory)
        var rejections: [String] = []
        func check(_ candidate: String, origin: String) -> ObjectFile? {
            guard
                let object = try? ObjectFileReader.read(path: candidate, architecture: architecture.objectArchitecture),
                object.format == .elf, object.kind != .core
            else {
                rejections.append("\(candidate) (\(origin)): not an ELF binary")
                return nil
            }
            if let buildID, object.buildID != buildID {
                rejections.append(
                    "\(candidate) (\(origin)): build-id \(object.buildID?.hex ?? "(none)") is not the recorded \(buildID.hex)"
                )
                return nil
            }
            // Without a build-id to check, only the file at the path the core names (or -e) is taken.
            if buildID == nil, candidate != path, candidate != executable {
                rejections.append("\(candidate) (\(origin)): no build-id is recorded to check it against")
                return nil
            }
            return object
        }
        for candidate in candidates {
            if let object = check(candidate.path, origin: candidate.origin) { return .success(object) }
        }
        for candidate in locator.systemLibraryCandidates(name: name, path: path, excluding: candidates) {
            if let object = check(candidate.path, origin: candidate.origin) { return .success(object) }
        }
        if let remote, let buildID {
            switch remote.source.fetch(.executable, of: buildID) {
            case .fetched(let fetched, let origin):
                if let object = check(fetched, origin: "from \(origin)") { return .success(object) }
            case .unavailable(let reason):
                rejections.append("asked " + reason)
            }
        }
        if rejections.isEmpty {
            return .failure(Failure(description: "not found; looked " + searched.joined(separator: ", ")))
        }
        return .failure(Failure(description: rejections.joined(separator: "; ")))
    }
}

/// Finds the call-frame information of an image without its binary, by the image's name, the path it was mapped from
/// and its build-id; its rows are kept by offsets from where the image was loaded. `nil` when there is none.
package typealias CallFrameRowsLookup =
    @Sendable (_ name: String, _ path: String, _ buildID: BuildID) -> (any CallFrameRows)?
