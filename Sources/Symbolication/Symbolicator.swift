public import CrashLogs
public import ObjectFiles

/// Where the symbolicator looks for binaries, and what it does with names.
public struct SymbolicationOptions: Sendable {
    /// Directories searched recursively for binaries and debug files, by name (and checked by build-id or UUID).
    public var debugPaths: [String]
    /// The binary for frames that name no image (an address list), and where it was loaded.
    public var object: String?
    public var objectLoadAddress: UInt64?
    /// The slice of the `-o` binary, when it is a universal file.
    public var objectArchitecture: Architecture?
    public var demangle: Bool
    /// Where index-cache files are read and written; `nil` turns the cache off.
    public var indexCache: IndexCache?

    public init(debugPaths: [String] = [], object: String? = nil, objectLoadAddress: UInt64? = nil,
                objectArchitecture: Architecture? = nil, demangle: Bool = true, indexCache: IndexCache? = nil) {
        self.debugPaths = debugPaths
        self.objectArchitecture = objectArchitecture
        self.object = object
        self.objectLoadAddress = objectLoadAddress
        self.demangle = demangle
        self.indexCache = indexCache
    }
}

/// Fills the frames of crash reports with symbols. Each binary is opened once per symbolicator,
/// however many frames and reports point into it.
public final class Symbolicator {
    private let options: SymbolicationOptions
    /// Opened images by the file (and slice) they were found at; `nil` records one that could not be opened.
    private var symbolizers: [String: ImageSymbolizer?] = [:]
    /// The real path of each path an image was found at, worked out once (every report asks again).
    private var realPaths: [String: String] = [:]
    /// Files found for images, so a directory tree is searched once per image.
    private var foundFiles: [String: Location?] = [:]
    /// What each debug path holds (its entries and its subdirectories', 8 levels deep, in search order): listed
    /// once per run, not once per image looked for.
    private var debugPathEntries: [String: [(name: String, path: String)]] = [:]

    /// A file and, for a universal file, the slice to use.
    struct Location: Hashable {
        var path: String
        var architecture: Architecture?
        /// The image, when finding the file already read it (to check its build-id or UUID).
        var object: ObjectFile?
    }
    /// What the symbolicator has to say (a binary not found, a mismatch), one line each, in order.
    public private(set) var notes: [String] = []

    /// How many binaries (or slices) this symbolicator has opened: each at most once, however many
    /// reports and frames point into it.
    public var openedImageCount: Int { symbolizers.count }

    public init(options: SymbolicationOptions) {
        self.options = options
    }

    /// Resolves every frame of `report` it can; frames it cannot keep their text and get a reason.
    /// - Parameter logDirectory: the directory of the log, searched for the binaries it names.
    public func symbolicate(_ report: inout CrashReport, logDirectory: String? = nil) {
        var imageSymbolizers: [Int: ImageSymbolizer] = [:]
        var imageProblems: [Int: String] = [:]
        for index in report.images.indices {
            switch symbolizer(for: report.images[index], logDirectory: logDirectory) {
            case .success(let symbolizer):
                imageSymbolizers[index] = symbolizer
                report.images[index].debugFile = symbolizer.debugFile?.path ?? symbolizer.image.path
            case .failure(let problem):
                imageProblems[index] = problem.description
            }
        }
        let fallback = options.object.flatMap { open(Location(path: $0, architecture: options.objectArchitecture)) }
        for threadIndex in report.threads.indices {
            for frameIndex in report.threads[threadIndex].frames.indices {
                var frame = report.threads[threadIndex].frames[frameIndex]
                if frame.isSymbolicatedInLog { continue }
                let symbolizer = frame.image.flatMap { imageSymbolizers[$0] } ?? (frame.image == nil ? fallback : nil)
                guard let symbolizer else {
                    frame.unresolvedReason = frame.image.flatMap { imageProblems[$0] } ?? "the frame names no image; give its binary with -o"
                    report.threads[threadIndex].frames[frameIndex] = frame
                    continue
                }
                let image = frame.image.map { report.images[$0] }
                guard let address = fileAddress(of: frame, image: image, symbolizer: symbolizer) else {
                    frame.unresolvedReason = "no load address is known for \(image?.name ?? "the image")"
                    report.threads[threadIndex].frames[frameIndex] = frame
                    continue
                }
                let lookup = frame.addressKind == .returnAddress ? address.retreated(by: 1) ?? address : address
                let resolution = symbolizer.resolve(lookup)
                frame.symbols = resolution.frames
                frame.functionOffset = resolution.functionStart.flatMap { start in
                    address >= start ? address.rawValue - start.rawValue : nil
                }
                frame.unresolvedReason = resolution.unresolvedReason
                report.threads[threadIndex].frames[frameIndex] = frame
            }
        }
    }

    /// Writes the index-cache files of the images opened that need one (see ``ImageSymbolizer/writeIndexCache()``).
    public func writeIndexCaches() {
        for case let symbolizer? in symbolizers.values.sorted(by: { ($0?.image.path ?? "") < ($1?.image.path ?? "") }) {
            let noted = symbolizer.notes.count
            symbolizer.writeIndexCache()
            notes += symbolizer.notes[noted...]
        }
    }

    /// The file address of a frame: from its offset into the image (load-bias relative in ELF, load-address
    /// relative in Mach-O), from the symbol the log names plus its offset, or from the image's load address.
    private func fileAddress(of frame: CrashFrame, image: CrashImage?, symbolizer: ImageSymbolizer) -> FileAddress? {
        let base = symbolizer.image.format == .machO ? symbolizer.image.imageBase.rawValue : 0
        if let offset = frame.imageOffset { return FileAddress(base &+ offset) }
        if let name = frame.symbolInLog, let offset = frame.symbolOffsetInLog,
           let symbol = symbolizer.symbol(named: name) {
            return symbol.address.advanced(by: offset)
        }
        guard let address = frame.address else { return nil }
        if let load = image?.loadAddress {
            return LoadedImage(loadAddress: load, imageBase: symbolizer.image.imageBase).fileAddress(ofRuntime: address)
        }
        if image == nil, let load = options.objectLoadAddress {
            return LoadedImage(loadAddress: load, imageBase: symbolizer.image.imageBase).fileAddress(ofRuntime: address)
        }
        return image == nil ? FileAddress(address) : nil
    }

    private func symbolizer(for image: CrashImage, logDirectory: String?) -> Result<ImageSymbolizer, Failure> {
        guard let location = locate(image, logDirectory: logDirectory) else {
            return .failure(Failure(description: "no binary found for \(image.name)" + (image.path.map { " (\($0))" } ?? "")))
        }
        let path = location.path
        guard let symbolizer = open(location) else { return .failure(Failure(description: "\(path) could not be read")) }
        if let expected = image.identifier, let actual = symbolizer.image.identifier,
           Self.normalized(expected) != Self.normalized(actual) {
            notes.append("\(path): build-id or UUID \(actual) does not match \(expected) in the log; not used for \(image.name)")
            return .failure(Failure(description: "\(path) is another build than the log's \(image.name)"))
        }
        return .success(symbolizer)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private func open(_ location: Location) -> ImageSymbolizer? {
        // By the file itself: /lib/x86_64-linux-gnu/libc.so.6 and /usr/lib/x86_64-linux-gnu/libc.so.6 are one file.
        let slice = "\u{0}" + (location.architecture?.name ?? "")
        let key: String
        if let known = realPaths[location.path] { key = known + slice } else {
            let real = FileSystem.realPath(location.path)
            realPaths[location.path] = real
            key = real + slice
        }
        if let cached = symbolizers[key] { return cached }
        var opened: ImageSymbolizer?
        do {
            let symbolizerOptions = SymbolizerOptions(
                demangle: options.demangle, debugFileSearch: DebugFileSearch(roots: options.debugPaths),
                architecture: location.architecture, indexCache: options.indexCache)
            let symbolizer = if let object = location.object { ImageSymbolizer(image: object, options: symbolizerOptions) } else {
                try ImageSymbolizer(path: location.path, options: symbolizerOptions)
            }
            notes += symbolizer.notes
            opened = symbolizer
        } catch {
            notes.append(error.description)
        }
        symbolizers[key] = .some(opened)
        return opened
    }

    /// The binary for an image: its path as the log gives it (as is, then beside the log), then files
    /// and `.dSYM` bundles of its name beside the log and below the debug paths. When the log gives a
    /// build-id or UUID, the first candidate with a matching image (slice) wins.
    private func locate(_ image: CrashImage, logDirectory: String?) -> Location? {
        let key = (logDirectory ?? "") + "\u{0}" + (image.path ?? image.name) + "\u{0}" + (image.identifier ?? "")
        if let found = foundFiles[key] { return found }
        var candidates: [String] = []
        if let path = image.path {
            candidates.append(path)
            if let directory = logDirectory, !path.hasPrefix("/") { candidates.append(directory + "/" + path) }
        }
        let names = [image.name, image.name + ".dSYM", image.name + ".app.dSYM"]
        if let directory = logDirectory { candidates += names.map { directory + "/" + $0 } }
        var found = firstMatch(candidates.filter(Self.exists), for: image)
        if found == nil {
            for root in options.debugPaths where found == nil {
                found = firstMatch(find(named: Set(names), below: root), for: image)
            }
        }
        foundFiles[key] = .some(found)
        return found
    }

    /// The first candidate that holds the image: any readable one when the log gives no identifier,
    /// else one with a slice of that build-id or UUID (falling back to the first, whose mismatch is then reported).
    private func firstMatch(_ candidates: [String], for image: CrashImage) -> Location? {
        guard let identifier = image.identifier.map(Self.normalized) else { return candidates.first.map { Location(path: $0) } }
        for candidate in candidates {
            guard let slices = try? ObjectFileReader.readAll(path: candidate) else { continue }
            if let match = slices.first(where: { $0.identifier.map(Self.normalized) == identifier }) {
                return Location(path: candidate, architecture: slices.count > 1 ? match.architecture : nil, object: match)
            }
        }
        // None matches: take the first, in the log's architecture, so that the mismatch is reported.
        guard let first = candidates.first else { return nil }
        let slices = (try? ObjectFileReader.readAll(path: first)) ?? []
        guard slices.count > 1 else { return Location(path: first) }
        let wanted = image.architecture.flatMap(Architecture.init(name:))
        return Location(path: first, architecture: slices.first { $0.architecture == wanted }?.architecture ?? slices.first?.architecture)
    }

    private static func exists(_ path: String) -> Bool { FileSystem.exists(path) }

    /// Files and `.dSYM` bundles below `root` whose name is one of `names`, nearest first.
    private func find(named names: Set<String>, below root: String) -> [String] {
        if debugPathEntries[root] == nil { debugPathEntries[root] = Self.entries(below: root, depth: 8) }
        return debugPathEntries[root, default: []].filter { names.contains($0.name) }.map(\.path)
            .filter { FileSystem.isRegularFile($0) || DSYMBundle.isBundle($0) }
    }

    /// The entries of `directory`, then those of its subdirectories (sorted; `.dSYM` bundles not entered).
    private static func entries(below directory: String, depth: Int) -> [(name: String, path: String)] {
        guard depth > 0 else { return [] }
        var entries: [(name: String, path: String)] = []
        var subdirectories: [String] = []
        for entry in FileSystem.entries(of: directory) {
            let path = directory + "/" + entry.name
            entries.append((entry.name, path))
            if entry.isDirectory, !entry.name.hasSuffix(".dSYM") { subdirectories.append(path) }
        }
        for subdirectory in subdirectories.sorted() {
            entries += Self.entries(below: subdirectory, depth: depth - 1)
        }
        return entries
    }

    private static func normalized(_ identifier: String) -> String {
        String(identifier.lowercased().filter { $0 != "-" })
    }
}
