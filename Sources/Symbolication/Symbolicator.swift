public import CrashLogs
public import ObjectFiles
public import PostmortemCore

/// Where the symbolicator looks for binaries, and what it does with names.
public struct SymbolicationOptions: Sendable {
    /// How each image is opened: its debug-file search, the index cache, debuginfod, demangling (the slice is the
    /// one each image needs).
    public var symbolizer: SymbolizerOptions
    /// Directories searched recursively for binaries and debug files, by name (and checked by build-id or UUID).
    public var debugPaths: [String]
    /// The binary for frames that name no image (an address list), and where it was loaded.
    public var object: String?
    /// Where the ``object`` was loaded (`-l`); frames that name no image, or name the object, are read from there.
    public var objectLoadAddress: UInt64?
    /// The slice of the `-o` binary, when it is a universal file.
    public var objectArchitecture: Architecture?
    /// How Swift names are shown when demangled: simplified as the runtime's backtracer shows them, or in full (the
    /// images are opened to demangle them so, once each).
    public var swiftNames: Demangler.Style {
        get { symbolizer.swiftNames }
        set { symbolizer.swiftNames = newValue }
    }
    /// Where images come from instead of being opened for this symbolicator alone (a server's opened images).
    public var sharedImages: (any ImageSource)?
    /// Listings of the ``debugPaths`` shared with other symbolicators (a server's), instead of one listing each.
    package var debugPathListings: DebugPathListings?
    /// Where an image whose binary is not found gets its symbols otherwise (Breakpad symbol stores); `nil`: nowhere.
    package var moduleSymbols: ModuleSymbolsLookup?
    /// Whether the images no frame points into are located too (their binary or debug file found, not opened, and set
    /// as ``CrashImage/debugFile``): what JSON shows of every image. Text shows the log's own image lines, so a caller
    /// that prints text turns it off: an Apple report lists hundreds of images and its frames point into a few.
    public var locatesImagesWithoutFrames = true

    /// Whether names are shown demangled (``SymbolizerOptions/demangle``).
    public var demangle: Bool { symbolizer.demangle }
    /// Where index-cache files are read and written; `nil` when the cache is off.
    public var indexCache: IndexCache? { symbolizer.indexCache }
    /// Where binaries and debug files missing here are fetched from by build-id (debuginfod), if anywhere.
    public var remoteDebugFiles: RemoteDebugFileSource? { symbolizer.remoteDebugFiles }

    /// - Parameter debugPaths: searched for binaries by the symbolicator and for debug files by each image.
    public init(
        debugPaths: [String] = [], object: String? = nil, objectLoadAddress: UInt64? = nil,
        objectArchitecture: Architecture? = nil, demangle: Bool = true, swiftNames: Demangler.Style = .simplified,
        indexCache: IndexCache? = nil, remoteDebugFiles: RemoteDebugFileSource? = nil
    ) {
        symbolizer = SymbolizerOptions(
            demangle: demangle, debugFileSearch: DebugFileSearch(roots: debugPaths),
            indexCache: indexCache, remoteDebugFiles: remoteDebugFiles)
        self.debugPaths = debugPaths
        self.objectArchitecture = objectArchitecture
        self.object = object
        self.objectLoadAddress = objectLoadAddress
        symbolizer.swiftNames = swiftNames
    }
}

/// Fills the frames of crash reports with symbols. Each binary is opened once per symbolicator,
/// however many frames and reports point into it.
public final class Symbolicator {
    /// Where binaries are looked for and how images are opened.
    public let options: SymbolicationOptions
    /// Opened images by the file (and slice) they were found at; `nil` records one that could not be opened.
    private var symbolizers: [String: ImageSymbolizer?] = [:]
    /// The real path of each path an image was found at, worked out once (every report asks again).
    private var realPaths: [String: String] = [:]
    /// What was found for each image as logs name it, so folders are searched once per image.
    private var imageSearches: [ImageSearchKey: ImageSearch] = [:]
    private let locator: BinaryLocator
    /// Whether each Swift linkage name met is a thunk.
    private var swiftThunks: [String: Bool] = [:]
    /// Answers given in this run, by image and address (``answer(_:_:)``).
    private var answers: [AnswerKey: (AddressResolution, [SymbolicatedFrame])] = [:]

    /// A file and, for a universal file, the slice to use.
    struct Location: Hashable {
        var path: String
        var architecture: Architecture?
        /// The image, when finding the file already read it (to check its build-id or UUID).
        var object: ObjectFile?
    }
    /// Where what the symbolicator and the images it opens have to say goes (a candidate binary rejected, an image
    /// without debug information, unreadable DWARF), as it is found.
    public let diagnostics: DiagnosticSink
    /// The images of each candidate file read to check its build-id or UUID.
    private var slicesByPath: [String: [ObjectFile]?] = [:]
    /// Symbolizers whose opening notes were passed on.
    private var openingNoted = Set<ObjectIdentifier>()
    /// Candidates already rejected, so a note is made once per run, not once per report.
    private var rejectionsNoted = Set<String>()
    /// Each unresolved reason's words, made once a run: a folder of logs gives the same images the same reasons, and
    /// the words (every place looked, joined) cost thousands of instructions a log.
    private var reasonTexts: [UnresolvedReason: String] = [:]

    /// `reason`'s ``UnresolvedReason/description``, made once for each reason.
    package func describe(_ reason: UnresolvedReason) -> String {
        if let known = reasonTexts[reason] { return known }
        let text = reason.description
        reasonTexts[reason] = text
        return text
    }

    /// How many binaries (or slices) this symbolicator has opened: each at most once, however many
    /// reports and frames point into it.
    package var openedImageCount: Int { symbolizers.count }

    /// A symbolicator that reports what is worth telling (a binary rejected, no debug information) to `diagnostics`.
    public init(diagnostics: DiagnosticSink, options: SymbolicationOptions) {
        self.options = options
        self.diagnostics = diagnostics
        locator = BinaryLocator(
            debugPaths: options.debugPaths, object: options.object, sharedListings: options.debugPathListings)
    }

    /// Whether the last frame of the last report symbolicated was a signal trampoline's: a log read in pieces
    /// continues its stack in the next piece, whose first frame is then the interrupted instruction. Set when the
    /// report before a continuing one was symbolicated by another symbolicator (another thread's piece).
    package var endedAfterTrampoline = false

    /// Resolves every frame of `report` it can; frames it cannot keep their text and get a reason.
    /// - Parameters:
    ///   - logDirectory: the directory of the log, searched for the binaries it names.
    ///   - continuing: the report is the next piece of the one before it (its first stack goes on from that one's last).
    public func symbolicate(_ report: inout CrashReport, logDirectory: String? = nil, continuing: Bool = false) {
        // By image position, in arrays (asked at every frame of every log: a dictionary hashed the position each time);
        // a frame's image outside the report's list has none of them.
        let imageCount = report.images.count
        func slot(_ image: Int?) -> Int? { image.flatMap { $0 >= 0 && $0 < imageCount ? $0 : nil } }
        var imageSymbolizers = [(symbolizer: ImageSymbolizer, bias: UInt64?)?](repeating: nil, count: imageCount)
        var imageSymbolFiles = [(any ModuleSymbols)?](repeating: nil, count: imageCount)
        var imageProblems = [UnresolvedReason?](repeating: nil, count: imageCount)
        var framesOfImage = [[LogAgreement.FrameFacts]](repeating: [], count: imageCount)
        for (threadIndex, thread) in report.threads.enumerated() {
            for frameIndex in thread.frames.indices {
                guard let image = slot(thread.frames[frameIndex].image) else { continue }
                var frame = LogAgreement.FrameFacts(thread.frames[frameIndex])
                if frame.addressKind == .returnAddress,
                    Self.mayBeInterrupted(frameIndex, of: thread, firstContinues: continuing && threadIndex == 0)
                {
                    frame.addressKind = .programCounter
                }
                framesOfImage[image].append(frame)
            }
        }
        for index in report.images.indices {
            let frames = framesOfImage[index]
            // An image no frame points into needs no lookups: its binary and debug file are found, not opened (a
            // core's libc, compressed debug information and all, when the walk never reaches it), when asked for.
            if frames.isEmpty, !options.locatesImagesWithoutFrames { continue }
            let search = search(for: report.images[index], logDirectory: logDirectory)
            if frames.isEmpty {
                // Only its build-id or UUID can say which file is the image's (no frame's symbol or offset can): one
                // found by it, or none, and nothing said of the candidates (the log's frames need none of them).
                if let located = locatedWithoutOpening(report.images[index], search: search)
                    ?? options.moduleSymbols?(report.images[index])?.path
                {
                    report.images[index].debugFile = located
                    report.images[index].identifiedBy = .identifier
                }
                continue
            }
            switch symbolizer(for: report.images[index], search: search, frames: frames, format: report.format) {
            case .success(let found):
                imageSymbolizers[index] = (found.symbolizer, found.bias)
                report.images[index].debugFile = found.symbolizer.debugFile?.path ?? found.symbolizer.image.path
                report.images[index].identifiedBy = found.identifiedBy
            case .failure(let problem):
                imageProblems[index] = problem.reason
                if let symbols = options.moduleSymbols?(report.images[index]) {
                    imageSymbolFiles[index] = symbols
                    report.images[index].debugFile = symbols.path
                    report.images[index].identifiedBy = .identifier
                }
            }
        }
        let fallback = options.object.flatMap { open(Location(path: $0, architecture: options.objectArchitecture)) }
        if let fallback, report.threads.contains(where: { $0.frames.contains { $0.image == nil } }),
            openingNoted.insert(ObjectIdentifier(fallback)).inserted
        {
            fallback.openingDiagnostics.forEach(diagnostics.report)
        }
        // Each image's build-id as text once a report, not once a frame.
        var buildIDTexts: [ObjectIdentifier: String?] = [:]
        func buildIDText(of symbolizer: ImageSymbolizer) -> String? {
            if let known = buildIDTexts[ObjectIdentifier(symbolizer)] { return known }
            let text = symbolizer.sourceBuildID?.hex
            buildIDTexts[ObjectIdentifier(symbolizer)] = text
            return text
        }
        // The Swift runtime's backtracer says of each frame what its address is; other logs leave it to the reader.
        let marksSignalFrames = report.format != .swiftBacktrace
        let images = report.images
        var afterTrampoline = false
        // Each frame is filled where it lies in the report (no copy of it in and out: a deep stack has thousands).
        func fill(_ frame: inout CrashFrame) {
            defer {
                // A frame the log already names with its file and line (a sanitizer's) lacks nothing.
                if frame.symbols.isEmpty, frame.symbolInLog != nil, frame.sourceInLog != nil {
                    frame.unresolvedReason = nil
                }
            }
            if marksSignalFrames, afterTrampoline, frame.addressKind == .returnAddress {
                frame.addressKind = .programCounter
            }
            afterTrampoline = frame.symbolInLog.map(SignalTrampoline.isTrampoline(named:)) ?? false
            if frame.isSymbolicatedInLog { return }
            let found =
                slot(frame.image).flatMap { imageSymbolizers[$0] }
                ?? (frame.image == nil ? fallback.map { ($0, nil) } : nil)
            if found == nil, let image = slot(frame.image), let symbols = imageSymbolFiles[image] {
                resolve(&frame, image: images[image], from: symbols)
                return
            }
            guard let (symbolizer, bias) = found else {
                if frame.address != nil || frame.imageOffset != nil {
                    frame.unresolvedReason = slot(frame.image).flatMap { imageProblems[$0] } ?? .noImage
                }
                return
            }
            let image = frame.image.map { images[$0] }
            // An image the -o binary stands for (its name) was loaded at -l, as frames that name none were.
            let isObject = fallback.map { $0 === symbolizer } ?? false
            guard
                let address = fileAddress(
                    of: frame, image: image, symbolizer: symbolizer, bias: bias, isObject: isObject)
            else {
                frame.unresolvedReason = .noLoadAddress(image: image?.name)
                return
            }
            // A handler returns to the trampoline's first instruction: that frame is no return address either.
            if marksSignalFrames, frame.addressKind == .returnAddress, symbolizer.isSignalTrampoline(at: address) {
                frame.addressKind = .programCounter
                afterTrampoline = true
            }
            let lookup = frame.addressKind == .returnAddress ? address.retreated(by: 1) ?? address : address
            let (resolution, shown) = answer(symbolizer, lookup)
            frame.lookupAddress = lookup.rawValue
            frame.symbols = shown
            frame.resolvedBuildID = buildIDText(of: symbolizer)
            frame.functionOffset = resolution.functionStart.flatMap { start in
                address >= start ? address.rawValue - start.rawValue : nil
            }
            frame.unresolvedReason = resolution.unresolvedReason
            if let name = resolution.symbol ?? resolution.frames.last?.function,
                SignalTrampoline.isTrampoline(named: name)
            {
                afterTrampoline = true
            }
        }
        for threadIndex in report.threads.indices {
            afterTrampoline = continuing && threadIndex == 0 && endedAfterTrampoline
            for frameIndex in report.threads[threadIndex].frames.indices {
                fill(&report.threads[threadIndex].frames[frameIndex])
            }
            endedAfterTrampoline = afterTrampoline
        }
    }

    /// Whether frame `index` of `thread`, which the log gives as a return address, may be the instruction a signal
    /// interrupted: after a trampoline it is. Which frame of another image is a trampoline is known only once that
    /// image is found, so one after an unnamed frame of another image may be (after one of its own image, the binary
    /// tells: ``LogAgreement``).
    private static func mayBeInterrupted(_ index: Int, of thread: CrashThread, firstContinues: Bool) -> Bool {
        guard index > 0 else { return firstContinues }
        if let name = thread.frames[index - 1].symbolInLog { return SignalTrampoline.isTrampoline(named: name) }
        return thread.frames[index - 1].image != thread.frames[index].image
    }

    /// Fills `frame` of `image` from a symbol file: its offset from where the image was loaded is looked up (a return
    /// address's call, one byte before it).
    private func resolve(_ frame: inout CrashFrame, image: CrashImage, from symbols: any ModuleSymbols) {
        let offset: UInt64
        if let imageOffset = frame.imageOffset {
            offset = imageOffset
        } else if let address = frame.address, let load = image.loadAddress, address >= load {
            offset = address - load
        } else {
            frame.unresolvedReason = .noLoadAddress(image: image.name)
            return
        }
        let lookup = frame.addressKind == .returnAddress && offset > 0 ? offset - 1 : offset
        let resolution = symbols.resolve(lookup)
        frame.lookupAddress = lookup
        frame.symbols = resolution.frames
        frame.functionOffset = resolution.functionStart.flatMap { offset >= $0.rawValue ? offset - $0.rawValue : nil }
        frame.unresolvedReason = resolution.unresolvedReason
    }

    /// The answer at `address` of `symbolizer`, and its frames as shown; each (image, address) is looked up once while
    /// the memo holds it: a deep recursion, or a log of thousands of crashes, asks the same few addresses again and again.
    private func answer(_ symbolizer: ImageSymbolizer, _ address: FileAddress) -> (
        AddressResolution, [SymbolicatedFrame]
    ) {
        let key = AnswerKey(image: ObjectIdentifier(symbolizer), address: address.rawValue)
        if let known = answers[key] { return known }
        let resolution = symbolizer.resolve(address)
        let found = (resolution, resolution.frames.map(shownForSwift))
        // Bounded: a log of millions of distinct addresses empties it now and then, instead of holding every answer.
        if answers.count >= Self.answerLimit { answers.removeAll(keepingCapacity: true) }
        answers[key] = found
        return found
    }

    struct AnswerKey: Hashable {
        var image: ObjectIdentifier
        var address: UInt64
    }

    /// The most answers the memo holds.
    static let answerLimit = 1 << 16

    /// A symbol as Swift people read it: whether a Swift function is a thunk, worked out once per linkage name (its
    /// name comes demangled in the asked style from the image).
    private func shownForSwift(_ symbol: SymbolicatedFrame) -> SymbolicatedFrame {
        guard let linkageName = symbol.linkageName, Demangler.isSwift(linkageName) else { return symbol }
        var symbol = symbol
        if let known = swiftThunks[linkageName] {
            symbol.isThunk = known
            return symbol
        }
        let isThunk = Demangler.isThunk(linkageName)
        swiftThunks[linkageName] = isThunk
        symbol.isThunk = isThunk
        return symbol
    }

    /// An image whose frames stay unresolved in a report: how many of how many, and why (with what to try).
    public struct UnresolvedImage: Hashable, Sendable {
        /// The image's name, or "frames without an image".
        public var name: String
        /// How many of the image's frames that have an address stayed unresolved.
        public var unresolved: Int
        /// How many of the image's frames have an address.
        public var total: Int
        /// The first unresolved frame's reason.
        public var reason: UnresolvedReason
    }

    /// The images whose frames stay unresolved in `report`, in the order the report first names them. Frames the log
    /// gives no address for (a debugger's `<signal handler called>`) are not counted.
    public func unresolvedImages(of report: CrashReport) -> [UnresolvedImage] {
        // By image position, the last slot for frames without an image; frames read in place, not copied. The counts
        // apart from the reasons: a slot of numbers is read and written without copying a reason in and out of it.
        let noImage = report.images.count
        var totals = [Int](repeating: 0, count: noImage + 1)
        var unresolved = [Int](repeating: 0, count: noImage + 1)
        var reasons: [Int: UnresolvedReason] = [:]
        var order: [Int] = []
        for thread in report.threads {
            thread.frames.withUnsafeBufferPointer { frames in
                for index in frames.indices
                where !frames[index].isSymbolicatedInLog
                    && (frames[index].address != nil || frames[index].imageOffset != nil)
                {
                    let key = frames[index].image.map { min(max($0, 0), noImage) } ?? noImage
                    if totals[key] == 0 { order.append(key) }
                    totals[key] += 1
                    if frames[index].symbols.isEmpty, let reason = frames[index].unresolvedReason {
                        unresolved[key] += 1
                        if unresolved[key] == 1 { reasons[key] = reason }
                    }
                }
            }
        }
        return order.compactMap { key in
            guard unresolved[key] > 0, let reason = reasons[key] else { return nil }
            let name = key < noImage ? report.images[key].name : "frames without an image"
            return UnresolvedImage(name: name, unresolved: unresolved[key], total: totals[key], reason: reason)
        }
    }

    /// Writes the index-cache files of the images opened that need one (see ``ImageSymbolizer/writeIndexCache()``).
    /// The images opened that have no sound index-cache file yet (``writeIndexCaches()`` would write theirs).
    package var imagesNeedingIndexCacheFiles: [ImageSymbolizer] {
        symbolizers.values.compactMap { $0 }.filter(\.needsIndexCacheFile).sorted { $0.image.path < $1.image.path }
    }

    /// Writes the index-cache file of every image opened that lacks a sound one, one after the other.
    public func writeIndexCaches() {
        for case let symbolizer? in symbolizers.values.sorted(by: { ($0?.image.path ?? "") < ($1?.image.path ?? "") }) {
            symbolizer.writeIndexCache()
        }
    }

    /// The file address of a frame: from its offset into the image (load-bias relative in ELF, load-address
    /// relative in Mach-O), from the symbol the log names plus its offset, or from the image's load address (or the
    /// load bias the log's other frames imply); an executable that is not position-independent runs where it was linked.
    /// The -o binary (`isObject`) was loaded at -l, whether its frames name it or not.
    private func fileAddress(
        of frame: CrashFrame, image: CrashImage?, symbolizer: ImageSymbolizer, bias: UInt64?, isObject: Bool
    ) -> FileAddress? {
        let base = symbolizer.image.format == .machO ? symbolizer.image.imageBase.rawValue : 0
        if let offset = frame.imageOffset { return FileAddress(base &+ offset) }
        // Apple's unsymbolicated `App + 2308` counts from where the image was loaded (its __TEXT segment).
        if let name = frame.symbolInLog, let offset = frame.symbolOffsetInLog, symbolizer.image.format == .machO,
            let image, name == image.name
        {
            return FileAddress(base &+ offset)
        }
        if let name = frame.symbolInLog, let offset = frame.symbolOffsetInLog,
            let symbol = symbolizer.symbol(named: name)
        {
            return symbol.address.advanced(by: offset)
        }
        guard let address = frame.address else { return nil }
        if let load = image?.loadAddress {
            return LoadedImage(loadAddress: load, imageBase: symbolizer.image.imageBase).fileAddress(ofRuntime: address)
        }
        if image == nil || isObject, let load = options.objectLoadAddress {
            return LoadedImage(loadAddress: load, imageBase: symbolizer.image.imageBase).fileAddress(ofRuntime: address)
        }
        if let bias { return FileAddress(address &- bias) }
        if symbolizer.image.format == .elf, symbolizer.image.kind == .executable { return FileAddress(address) }
        return image == nil ? FileAddress(address) : nil
    }

    /// The first candidate binary that is the log's: of its build-id or UUID when the log gives one, else one that
    /// agrees with the log's frames (``LogAgreement``); with the load bias the log's frames imply.
    private func symbolizer(
        for image: CrashImage, search: ImageSearch, frames: [LogAgreement.FrameFacts], format: CrashLogFormat
    ) -> Result<(symbolizer: ImageSymbolizer, bias: UInt64?, identifiedBy: ImageIdentification), Failure> {
        let (candidates, searched) = (search.candidates, search.searched)
        var rejections: [RejectedCandidate] = []
        func reject(_ candidate: BinaryLocator.Candidate, _ why: RejectedCandidate.Reason) {
            rejections.append(RejectedCandidate(path: candidate.path, origin: candidate.origin, reason: why))
            if rejectionsNoted.insert(candidate.path + "\u{0}" + image.name + "\u{0}" + why.description).inserted {
                let remedy: Remedy? = if case .needsSlice = why { .chooseSlice } else { nil }
                diagnostics.report(
                    subject: candidate.path, "not used for the log's \(image.name): \(why)", remedy: remedy)
            }
        }
        func use(_ candidate: BinaryLocator.Candidate) -> (
            symbolizer: ImageSymbolizer, bias: UInt64?, identifiedBy: ImageIdentification
        )? {
            let location: Location
            if let identity = image.identity {
                guard let slices = slices(of: candidate.path), !slices.isEmpty else {
                    reject(candidate, .notAnObjectFile)
                    return nil
                }
                guard let match = slices.first(where: { $0.identity.map(identity.isSameBuild) ?? false })
                else {
                    reject(
                        candidate, .otherBuild(found: slices.compactMap(\.identifier), wanted: image.identifier ?? ""))
                    return nil
                }
                location = Location(
                    path: candidate.path, architecture: slices.count > 1 ? match.architecture : nil, object: match)
            } else {
                // Nothing in the log tells the slice of a universal file: --arch does.
                let slices = slices(of: candidate.path) ?? []
                if slices.count > 1 {
                    guard let architecture = options.objectArchitecture else {
                        reject(candidate, .needsSlice(architectures: slices.map(\.architecture.name)))
                        return nil
                    }
                    location = Location(path: candidate.path, architecture: architecture)
                } else {
                    location = Location(path: candidate.path, architecture: nil)
                }
            }
            guard let symbolizer = open(location) else {
                reject(candidate, .unreadable)
                return nil
            }
            // glibc's `backtrace` walks the machine stack with its call-frame information: a return address there
            // follows a call. Where the binary was named with -o, the user vouches for it.
            let checksCalls = format == .glibcBacktrace && candidate.path != options.object
            switch LogAgreement.check(symbolizer, image: image, frames: frames, returnAddressesFollowCalls: checksCalls)
            {
            case .success(let agreement):
                // What opening it found (no debug information, say) is said once the binary is used, not for every candidate.
                if openingNoted.insert(ObjectIdentifier(symbolizer)).inserted {
                    symbolizer.openingDiagnostics.forEach(diagnostics.report)
                }
                return (symbolizer, agreement.bias, image.identifier != nil ? .identifier : agreement.evidence)
            case .failure(let disagreement):
                reject(candidate, .disagrees(disagreement.description))
                return nil
            }
        }
        for candidate in candidates {
            if let used = use(candidate) { return .success(used) }
        }
        for candidate in systemLibraries(for: image, in: search) {
            if let used = use(candidate) { return .success(used) }
        }
        // Not on this machine: the binary of the log's build-id from debuginfod, when the log is of an ELF system.
        var remotely: String?
        if let remote = options.remoteDebugFiles, let buildID = image.identity?.buildID {
            switch remote.source.fetch(.executable, of: buildID) {
            case .fetched(let path, let origin):
                if let used = use(BinaryLocator.Candidate(path: path, origin: "from \(origin)")) {
                    return .success(used)
                }
            case .unavailable(let reason):
                remotely = reason
            }
        }
        if !rejections.isEmpty {
            return .failure(
                Failure(reason: .noMatchingBinary(image: image.name, rejected: rejections, remotely: remotely)))
        }
        return .failure(
            Failure(reason: .noBinary(image: image.name, path: image.path, searched: searched, remotely: remotely)))
    }

    /// What was found for one image as logs name it: the binaries that may be its (its path, -d, the log's folder) and
    /// the folders searched, then what later questions about it found. Looked up once per image of each report (a
    /// lookup hashes the image's path: every image of every log asks), the rest filled in place.
    private final class ImageSearch {
        let candidates: [BinaryLocator.Candidate]
        let searched: [String]
        /// The system's libraries that may be the image's besides ``candidates``, once asked for.
        var systemLibraries: [BinaryLocator.Candidate]?
        /// ``Symbolicator/locatedWithoutOpening(_:search:)``'s answer, once asked for.
        var locatedWithoutOpening: String??

        init(candidates: [BinaryLocator.Candidate], searched: [String]) {
            self.candidates = candidates
            self.searched = searched
        }
    }

    /// What the binaries found for an image depend on: the log's folder, the image's path (else name), its name (the
    /// system's libraries are found by it) and its build. Fields, not one string joined from them.
    private struct ImageSearchKey: Hashable {
        var logDirectory: String?
        var place: String
        var name: String
        var identifier: String?
    }

    private func search(for image: CrashImage, logDirectory: String?) -> ImageSearch {
        let key = ImageSearchKey(
            logDirectory: logDirectory, place: image.path ?? image.name, name: image.name,
            identifier: image.identifier)
        if let known = imageSearches[key] { return known }
        let (candidates, searched) = locator.candidates(
            name: image.name, path: image.path, identity: image.identity, logDirectory: logDirectory)
        let search = ImageSearch(candidates: candidates, searched: searched)
        imageSearches[key] = search
        return search
    }

    /// The system's libraries that may be `image`'s besides its candidates, found once per image as the log names it
    /// (each lookup lists paths and asks the file system about each).
    private func systemLibraries(for image: CrashImage, in search: ImageSearch) -> [BinaryLocator.Candidate] {
        if let known = search.systemLibraries { return known }
        let found = Array(
            locator.systemLibraryCandidates(name: image.name, path: image.path, excluding: search.candidates))
        search.systemLibraries = found
        return found
    }

    /// The debug file (else the binary) of the build `image` names, found on this machine without opening either
    /// (no DWARF read, no debuginfod asked); `nil` when the log names no build or no binary of it is here.
    private func locatedWithoutOpening(_ image: CrashImage, search: ImageSearch) -> String? {
        guard let identity = image.identity else { return nil }
        if let known = search.locatedWithoutOpening { return known }
        let candidates = search.candidates
        func build(at path: String) -> ObjectFile? {
            slices(of: path)?.first { $0.identity.map(identity.isSameBuild) ?? false }
        }
        // The log's build where the log's binary would be found (its path, -d, the log's folder, the system's
        // libraries); then its debug file where an opened image would find it, debuginfod aside.
        var match = candidates.lazy.compactMap { build(at: $0.path) }.first
        if match == nil {
            match =
                systemLibraries(for: image, in: search).lazy.compactMap { build(at: $0.path) }.first
        }
        let located = match.map { match in
            match.hasDWARF
                ? match.path
                : DebugFileLocator(search: options.symbolizer.debugFileSearch).locateDebugFile(for: match).debugFile?
                    .path ?? match.path
        }
        search.locatedWithoutOpening = .some(located)
        return located
    }

    /// The images in the file at `path` (each slice of a universal file), read once per run; `nil` when it is not an
    /// object file.
    private func slices(of path: String) -> [ObjectFile]? {
        if let known = slicesByPath[path] { return known }
        let read = try? ObjectFileReader.readAll(path: path)
        slicesByPath[path] = .some(read)
        return read
    }

    /// Why no binary of an image was used.
    struct Failure: Error {
        var reason: UnresolvedReason
    }

    private func open(_ location: Location) -> ImageSymbolizer? {
        // By the file itself: /lib/x86_64-linux-gnu/libc.so.6 and /usr/lib/x86_64-linux-gnu/libc.so.6 are one file.
        let slice = "\u{0}" + (location.architecture?.name ?? "")
        let key: String
        if let known = realPaths[location.path] {
            key = known + slice
        } else {
            let real = FileSystem.realPath(location.path)
            realPaths[location.path] = real
            key = real + slice
        }
        if let cached = symbolizers[key] { return cached }
        var opened: ImageSymbolizer?
        if let shared = options.sharedImages {
            opened = shared.image(
                path: location.path, architecture: location.architecture, swiftNames: options.swiftNames)
            symbolizers[key] = .some(opened)
            return opened
        }
        do {
            var symbolizerOptions = options.symbolizer
            symbolizerOptions.architecture = location.architecture
            let symbolizer =
                if let object = location.object {
                    ImageSymbolizer(image: object, options: symbolizerOptions, diagnostics: diagnostics)
                } else {
                    try ImageSymbolizer(path: location.path, options: symbolizerOptions, diagnostics: diagnostics)
                }
            opened = symbolizer
        } catch {
            diagnostics.report(subject: nil, error.description)
        }
        symbolizers[key] = .some(opened)
        return opened
    }
}
