import ObjectFiles
import PostmortemCore

/// Which file of the cache answers for an image: the one of its content. A digest of a large debug file takes tens of
/// milliseconds, more than a warm lookup, so the key found for the files at their paths, with their sizes and
/// modification times, is kept in a small place record beside the index files, and a file is digested only when its
/// record is missing or stale and there is an index file of its build to find, or one is to be written.
extension IndexCache {
    /// The key of the content of `debugFile` and `image` (one digest when they are one file) and the architecture
    /// read: from the place record of the two at their present paths when it is current; else, when `computing` or
    /// when the cache holds an index file of the image's build to be found, from their bytes (and the record
    /// written). `nil` when it is not computed, or the files cannot be read.
    package func contentKey(for image: ObjectFile, debugFile: ObjectFile, computing: Bool) -> UInt64? {
        // Each path resolved and looked at once: this runs before every warm lookup.
        let imagePath = FileSystem.realPath(image.path)
        let debugFilePath = debugFile.path == image.path ? imagePath : FileSystem.realPath(debugFile.path)
        return contentKey(
            identity: Self.identityName(of: image), realPaths: (imagePath, debugFilePath),
            variant: debugFile.architecture.name, computing: computing
        ) { Self.computedContentKey(image: image, debugFile: debugFile) }
    }

    /// The key of the content of the file at `path` (a Breakpad symbol file), whose index files' names start with
    /// `identity`: from its place record when it is current; else, when `computing` or when the cache holds an index
    /// file named by `identity`, by `digest` (and the record written). `nil` when it is not computed.
    package func contentKey(ofFile path: String, identity: String, computing: Bool, digest: () -> UInt64?) -> UInt64? {
        let realPath = FileSystem.realPath(path)
        return contentKey(
            identity: identity, realPaths: (realPath, realPath), variant: "", computing: computing, digest: digest)
    }

    private func contentKey(
        identity: String, realPaths: (image: String, debugFile: String), variant: String, computing: Bool,
        digest: () -> UInt64?
    ) -> UInt64? {
        let place = PlaceRecord(imagePath: realPaths.image, debugFilePath: realPaths.debugFile)
        let recordPath = placePath(identity: identity, realPaths: realPaths, variant: variant)
        if let place, let recorded = PlaceRecord.read(recordPath), recorded.sameFiles(as: place) {
            return recorded.contentKey
        }
        guard computing || holdsIndexFile(identity: identity), var place, let key = digest() else { return nil }
        place.contentKey = key
        // A record that cannot be written costs the next run a digest, nothing else. Computed, the key is for an index
        // file about to be written, whose directory is made anyway.
        if computing { try? FileSystem.createDirectories(directory) }
        try? place.write(to: recordPath)
        return key
    }

    /// The place record of `image` read through `debugFile`: named by the image's identity and by the two files' real
    /// paths and the architecture, so that each place a build is found at has its own.
    func placePath(for image: ObjectFile, debugFile: ObjectFile) -> String {
        placePath(
            identity: Self.identityName(of: image),
            realPaths: (FileSystem.realPath(image.path), FileSystem.realPath(debugFile.path)),
            variant: debugFile.architecture.name)
    }

    /// The place record of the files at `realPaths` read as `variant` (an architecture), named by `identity`.
    private func placePath(identity: String, realPaths: (image: String, debugFile: String), variant: String) -> String {
        let place = ImmutableBytes.checksum(Array("\(realPaths.image)\u{0}\(realPaths.debugFile)\u{0}\(variant)".utf8))
        return directory + "/" + identity + "-" + Self.hex(place) + Self.placeExtension
    }

    /// Whether an index file whose name starts with `identity` is in the cache.
    private func holdsIndexFile(identity: String) -> Bool {
        let start = identity + "-"
        return FileSystem.entries(of: directory).contains {
            $0.isRegularFile && $0.name.hasPrefix(start) && $0.name.hasSuffix(Self.fileExtension)
        }
    }

    /// The digest of the debug file's bytes, with the image's when it is another file, and the architecture's name.
    static func computedContentKey(image: ObjectFile, debugFile: ObjectFile) -> UInt64? {
        guard let debugBytes = try? ImmutableBytes(mapping: debugFile.path) else { return nil }
        var parts = [debugBytes.contentDigest()]
        if FileSystem.realPath(image.path) != FileSystem.realPath(debugFile.path) {
            guard let imageBytes = try? ImmutableBytes(mapping: image.path) else { return nil }
            parts.append(imageBytes.contentDigest())
        }
        var key = ImmutableBytes(Array(debugFile.architecture.name.utf8)).contentDigest()
        for part in parts {
            var bytes: [UInt8] = []
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: part >> shift)) }
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: key >> shift)) }
            key = ImmutableBytes(bytes).contentDigest()
        }
        return key
    }
}

/// What a place record says: the image and debug file at their real paths, with the fingerprints they had
/// (``FileSystem/fingerprint(_:)``: inode, size, times) when their content key was computed.
struct PlaceRecord: Hashable {
    var imagePath: String
    var imageFingerprint: [Int64]
    var debugFilePath: String
    var debugFileFingerprint: [Int64]
    var contentKey: UInt64 = 0

    /// The two files at their real paths as they are now; `nil` when either cannot be found.
    init?(imagePath: String, debugFilePath: String) {
        guard let imageFingerprint = FileSystem.fingerprint(imagePath) else { return nil }
        self.imagePath = imagePath
        self.imageFingerprint = imageFingerprint
        self.debugFilePath = debugFilePath
        if debugFilePath == imagePath {
            debugFileFingerprint = imageFingerprint
        } else {
            guard let debugFileFingerprint = FileSystem.fingerprint(debugFilePath) else { return nil }
            self.debugFileFingerprint = debugFileFingerprint
        }
    }

    private init() {
        (imagePath, imageFingerprint, debugFilePath, debugFileFingerprint) = ("", [], "", [])
    }

    /// Whether the record is of the same files, unchanged (the key aside).
    func sameFiles(as other: PlaceRecord) -> Bool {
        var other = other
        other.contentKey = contentKey
        return self == other
    }

    /// The record at `path`; `nil` when there is none or it cannot be read.
    static func read(_ path: String) -> PlaceRecord? {
        guard let bytes = try? FileSystem.read(path, maximumSize: 1 << 16) else { return nil }
        var record = PlaceRecord()
        var found = 0
        KeyValueLines.forEach(in: bytes) { key, value in
            guard let value else { return true }
            found += 1
            switch key {
            case "image": record.imagePath = value
            case "imageFingerprint": record.imageFingerprint = KeyValueLines.numbers(value)
            case "debugFile": record.debugFilePath = value
            case "debugFileFingerprint": record.debugFileFingerprint = KeyValueLines.numbers(value)
            case "content": record.contentKey = UInt64(value, radix: 16) ?? 0
            default: found -= 1
            }
            return true
        }
        return found == 5 ? record : nil
    }

    /// Writes the record to `path`, atomically.
    func write(to path: String) throws(FileSystem.Failure) {
        func text(_ numbers: [Int64]) -> String { numbers.map(String.init).joined(separator: " ") }
        let lines = [
            "image=\(imagePath)", "imageFingerprint=\(text(imageFingerprint))", "debugFile=\(debugFilePath)",
            "debugFileFingerprint=\(text(debugFileFingerprint))", "content=\(IndexCache.hex(contentKey))"
        ]
        let file = try FileSystem.AtomicFile(path: path)
        try file.append(Array((lines.joined(separator: "\n") + "\n").utf8))
        try file.commit()
    }
}
