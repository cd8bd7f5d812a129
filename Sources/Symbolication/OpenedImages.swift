import Dispatch
public import ObjectFiles
public import PostmortemCore
import Synchronization

/// The images a server (or a command's run over many logs) has opened, each opened once and shared by every request
/// or thread at once (an opened image serves every thread). Past ``maximumOpenImages``, the least recently used are closed: a request still using one keeps it
/// until it is done. Opening an image costs far more than answering from one already open (its symbols and units are
/// read anew), so a request that needs an image another is opening waits for that one. Safe to call from any thread;
/// the calls block while an image opens, so callers run them off their event loops.
public final class OpenedImages: ImageSource {
    /// An image as the server knows it: a file, and the slice of it when it is universal.
    package struct Key: Hashable, Sendable {
        /// The file, as the caller found it.
        package var path: String
        /// The slice of a universal file; `nil` for a file of one image.
        package var architecture: Architecture?
        /// How its Swift names are shown (the Symbolication API's in full, posted logs' as `symbolicate` shows them).
        package var swiftNames: Demangler.Style

        /// The image at `path`, of slice `architecture` when the file is universal, Swift names shown in `swiftNames`'
        /// style.
        package init(path: String, architecture: Architecture?, swiftNames: Demangler.Style = .full) {
            self.path = path
            self.architecture = architecture
            self.swiftNames = swiftNames
        }
    }

    /// What was done, since the value was made.
    package struct Statistics: Hashable, Sendable {
        /// Images opened, and of them those that read an index-cache file instead of DWARF.
        package var opened = 0
        /// Of ``opened``, those that read an index-cache file instead of DWARF.
        package var indexCacheHits = 0
        /// Images closed to stay within ``maximumOpenImages``.
        package var closed = 0
        /// Index-cache files written.
        package var indexCacheFilesWritten = 0
        /// Images open now.
        package var open = 0
    }

    private enum Slot {
        /// Being opened by another caller, which leaves the group when done.
        case opening(DispatchGroup)
        case open(ImageSymbolizer, lastUse: UInt64)
    }

    private struct State {
        var slots: [Key: Slot] = [:]
        var clock: UInt64 = 0
        var statistics = Statistics()
        var writingIndexCaches = false
    }

    /// How images are opened (the index cache, where debug files are looked for, debuginfod).
    public let options: SymbolizerOptions
    /// The most images kept open.
    public let maximumOpenImages: Int
    /// Where what opening and lookups find is reported.
    public let diagnostics: DiagnosticSink
    private let state = Mutex(State())

    /// Images opened with `options` (the slice is each image's own), up to `maximumOpenImages` kept open.
    public init(options: SymbolizerOptions, maximumOpenImages: Int, diagnostics: DiagnosticSink) {
        self.options = options
        self.maximumOpenImages = max(1, maximumOpenImages)
        self.diagnostics = diagnostics
    }

    /// What has been done so far, and how many images are open now.
    package var statistics: Statistics { state.withLock { $0.statistics } }

    /// Whether an image open now lacks its index-cache file (``writeIndexCaches()`` would write one).
    public var hasIndexCacheFilesToWrite: Bool {
        !state.withLock { $0.writingIndexCaches } && !imagesNeedingIndexCacheFiles().isEmpty
    }

    /// The image `key`: open already, opened by another caller meanwhile (waited for), or opened now; what opening it
    /// found (no debug information, say) is said to ``diagnostics`` unless `saysWhatOpeningFound` is false (a
    /// symbolicator says it itself once the image is used, not for a candidate it passes over).
    /// - Throws: ``SymbolicationError`` when it cannot be opened (not remembered: a later call tries again).
    package func symbolizer(for key: Key, saysWhatOpeningFound: Bool = true) throws(SymbolicationError)
        -> ImageSymbolizer
    {
        while true {
            let found = state.withLock { state -> Slot? in
                state.clock += 1
                switch state.slots[key] {
                case .open(let symbolizer, _)?:
                    state.slots[key] = .open(symbolizer, lastUse: state.clock)
                    return .open(symbolizer, lastUse: state.clock)
                case .opening(let group)?:
                    return .opening(group)
                case nil:
                    let group = DispatchGroup()
                    group.enter()
                    state.slots[key] = .opening(group)
                    return nil
                }
            }
            switch found {
            case .open(let symbolizer, _)?:
                return symbolizer
            case .opening(let group)?:
                group.wait()
            case nil:
                return try open(key, saysWhatOpeningFound: saysWhatOpeningFound)
            }
        }
    }

    /// Opens `key`, whose slot this caller claimed, and stores it (or clears the slot when it cannot be opened).
    private func open(_ key: Key, saysWhatOpeningFound: Bool) throws(SymbolicationError) -> ImageSymbolizer {
        let opened: Result<ImageSymbolizer, SymbolicationError>
        do throws(SymbolicationError) {
            var keyed = options.with(architecture: key.architecture)
            keyed.swiftNames = key.swiftNames
            opened = .success(try ImageSymbolizer(path: key.path, options: keyed, diagnostics: diagnostics))
        } catch {
            opened = .failure(error)
        }
        let claim = state.withLock { state -> DispatchGroup? in
            var claim: DispatchGroup?
            if case .opening(let group)? = state.slots[key] { claim = group }
            switch opened {
            case .success(let symbolizer):
                state.slots[key] = .open(symbolizer, lastUse: state.clock)
                state.statistics.opened += 1
                state.statistics.open += 1
                if symbolizer.indexCacheFile != nil { state.statistics.indexCacheHits += 1 }
                Self.closeLeastRecentlyUsed(&state, keepingAtMost: maximumOpenImages)
            case .failure:
                state.slots[key] = nil
            }
            return claim
        }
        claim?.leave()
        let symbolizer = try opened.get()
        if saysWhatOpeningFound { symbolizer.openingDiagnostics.forEach(diagnostics.report) }
        return symbolizer
    }

    /// Writes the index-cache files the images open now lack, one image at a time; returns at once when another
    /// caller is writing them already. Requests go on using the images meanwhile.
    public func writeIndexCaches() {
        guard
            state.withLock({ state in
                if state.writingIndexCaches { return false }
                state.writingIndexCaches = true
                return true
            })
        else { return }
        defer { state.withLock { $0.writingIndexCaches = false } }
        for symbolizer in imagesNeedingIndexCacheFiles() {
            symbolizer.writeIndexCache()
            state.withLock { $0.statistics.indexCacheFilesWritten += 1 }
        }
    }

    /// The images open now that lack a sound index-cache file, by path.
    package func imagesNeedingIndexCacheFiles() -> [ImageSymbolizer] {
        state.withLock { state in
            state.slots.values.compactMap { slot in
                if case .open(let symbolizer, _) = slot, symbolizer.needsIndexCacheFile { return symbolizer }
                return nil
            }
        }.sorted { $0.image.path < $1.image.path }
    }

    /// Closes images, those used longest ago first, until at most `limit` are open.
    private static func closeLeastRecentlyUsed(_ state: inout State, keepingAtMost limit: Int) {
        guard state.statistics.open > limit else { return }
        let byAge = state.slots.compactMap { key, slot -> (key: Key, lastUse: UInt64)? in
            if case .open(_, let lastUse) = slot { return (key, lastUse) }
            return nil
        }.sorted { $0.lastUse < $1.lastUse }
        for (key, _) in byAge.prefix(state.statistics.open - limit) {
            state.slots[key] = nil
            state.statistics.open -= 1
            state.statistics.closed += 1
        }
    }

    /// The image at `path` for a symbolicator (``ImageSource``), or `nil` when it cannot be opened (said to
    /// ``diagnostics``). What opening found is left to the symbolicator, which says it when it uses the image.
    public func image(path: String, architecture: Architecture?, swiftNames: Demangler.Style) -> ImageSymbolizer? {
        do {
            return try symbolizer(
                for: Key(path: path, architecture: architecture, swiftNames: swiftNames), saysWhatOpeningFound: false)
        } catch {
            // (The error names the file.)
            diagnostics.report(subject: nil, error.description)
            return nil
        }
    }
}

extension SymbolizerOptions {
    /// These options with `architecture` chosen.
    func with(architecture: Architecture?) -> SymbolizerOptions {
        var options = self
        options.architecture = architecture
        return options
    }
}
