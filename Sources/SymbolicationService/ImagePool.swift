public import ObjectFiles
public import PostmortemCore
public import Symbolication
import Dispatch
import Synchronization

/// The images a server has opened, shared by its requests. A symbolizer answers one request at a time: a request
/// takes an idle one of its image, or opens another when all are busy, and gives it back when done. Past
/// ``maximumOpenImages`` symbolizers, idle ones of the least recently used images are closed. Opening an image
/// again costs far more than answering from one already open (its symbols and units are read anew), so
/// ``withSymbolizer(_:_:)`` waits a moment for a busy one when its image has ``concurrentUsesPerImage`` open. Safe to call from any
/// thread; the calls block while an image opens or answers, so callers run them off their event loops.
public final class ImagePool: Sendable {
    /// An image as the pool knows it: a file, and the slice of it when it is universal.
    public struct Key: Hashable, Sendable {
        /// The file, as the caller found it.
        public var path: String
        /// The slice of a universal file; `nil` for a file of one image.
        public var architecture: Architecture?

        /// The image at `path`, of slice `architecture` when the file is universal.
        public init(path: String, architecture: Architecture?) {
            self.path = path
            self.architecture = architecture
        }
    }

    /// What the pool did, since it was made.
    public struct Statistics: Hashable, Sendable {
        /// Symbolizers opened, and of them those that read an index-cache file instead of DWARF.
        public var opened = 0
        /// Of ``opened``, those that read an index-cache file instead of DWARF.
        public var indexCacheHits = 0
        /// Symbolizers closed to stay within ``maximumOpenImages``.
        public var closed = 0
        /// Index-cache files written.
        public var indexCacheFilesWritten = 0
        /// Symbolizers open now (busy or idle).
        public var open = 0
    }

    private struct Slot {
        var idle: [PooledSymbolizer] = []
        var busy = 0
        var lastUse: UInt64 = 0
        /// Callers waiting for a symbolizer of this image, first come first served.
        var waiters: [Waiter] = []
    }

    private struct State {
        var slots: [Key: Slot] = [:]
        var clock: UInt64 = 0
        var statistics = Statistics()
        var writingIndexCaches = false
        /// Symbolizers opened that needed an index-cache file, less those that wrote one.
        var unwrittenIndexCacheFiles = 0
    }

    /// How the pool's images are opened (the index cache, where debug files are looked for, debuginfod).
    public let options: SymbolizerOptions
    /// The most symbolizers kept open; more are opened while that many are busy, and closed when given back.
    public let maximumOpenImages: Int
    /// Where what opening and lookups find is reported.
    public let diagnostics: DiagnosticSink
    /// How many symbolizers of one image are opened before a caller waits for a busy one (the cores there are to run
    /// them on is a good number).
    public let concurrentUsesPerImage: Int
    /// The longest a caller waits for a busy symbolizer before it opens one of its own: a slow request holds its
    /// symbolizer for seconds, and must not hold up the quick ones behind it for longer.
    public let longestWait: Duration
    private let state = Mutex(State())

    /// A pool that opens images with `options` (the slice is each image's own), keeps up to `maximumOpenImages`
    /// symbolizers open, and makes a caller wait up to `longestWait` for a busy symbolizer once its image has
    /// `concurrentUsesPerImage` open.
    public init(options: SymbolizerOptions, maximumOpenImages: Int, concurrentUsesPerImage: Int = 2,
                longestWait: Duration = .milliseconds(250), diagnostics: DiagnosticSink) {
        self.options = options
        self.maximumOpenImages = max(1, maximumOpenImages)
        self.concurrentUsesPerImage = max(1, concurrentUsesPerImage)
        self.longestWait = longestWait
        self.diagnostics = diagnostics
    }

    /// What the pool has done so far, and how many symbolizers are open now.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Whether an image opened so far lacks its index-cache file (``writeIndexCaches()`` would write one).
    public var hasIndexCacheFilesToWrite: Bool { state.withLock { $0.unwrittenIndexCacheFiles > 0 && !$0.writingIndexCaches } }

    /// Calls `body` with a symbolizer of the image `key` that no other caller is using.
    /// - Throws: ``SymbolicationError`` when the image cannot be opened.
    public func withSymbolizer<Result>(_ key: Key, _ body: (ImageSymbolizer) throws(SymbolicationError) -> Result)
        throws(SymbolicationError) -> Result {
        let pooled = try checkOut(key, waiting: true)
        defer { checkIn(pooled, as: key) }
        return try body(pooled.symbolizer)
    }

    /// Writes the index-cache files the images opened so far lack, one image at a time, each while no request uses
    /// it; returns at once when another caller is writing them already.
    public func writeIndexCaches() {
        guard state.withLock({ state in
            if state.writingIndexCaches { return false }
            state.writingIndexCaches = true
            return true
        }) else { return }
        defer { state.withLock { $0.writingIndexCaches = false } }
        while let (key, pooled) = takeIdleNeedingIndexCacheFile() {
            pooled.symbolizer.writeIndexCache()
            state.withLock { state in
                state.statistics.indexCacheFilesWritten += 1
                state.unwrittenIndexCacheFiles = max(0, state.unwrittenIndexCacheFiles - 1)
            }
            checkIn(pooled, as: key)
        }
    }

    private func takeIdleNeedingIndexCacheFile() -> (Key, PooledSymbolizer)? {
        state.withLock { state in
            for (key, slot) in state.slots {
                guard let position = slot.idle.firstIndex(where: { $0.symbolizer.needsIndexCacheFile }) else { continue }
                let pooled = state.slots[key]!.idle.remove(at: position)
                state.slots[key]!.busy += 1
                return (key, pooled)
            }
            return nil
        }
    }

    /// A symbolizer of `key` for the caller alone: an idle one, one handed over by a caller done with it (when
    /// `waiting` and the image has ``concurrentUsesPerImage`` open, for up to ``longestWait``), or a new one.
    private func checkOut(_ key: Key, waiting: Bool = false) throws(SymbolicationError) -> PooledSymbolizer {
        enum Outcome { case idle(PooledSymbolizer), wait(Waiter), open }
        let outcome: Outcome = state.withLock { state in
            state.clock += 1
            var slot = state.slots[key] ?? Slot()
            defer { state.slots[key] = slot }
            slot.lastUse = state.clock
            if let taken = slot.idle.popLast() {
                slot.busy += 1
                return .idle(taken)
            }
            if waiting, slot.busy >= concurrentUsesPerImage {
                let waiter = Waiter()
                slot.waiters.append(waiter)
                return .wait(waiter)
            }
            slot.busy += 1
            state.statistics.open += 1
            return .open
        }
        switch outcome {
        case .idle(let pooled):
            return pooled
        case .wait(let waiter):
            _ = waiter.handedOver.wait(timeout: .now() + .microseconds(Int(longestWait / .microseconds(1))))
            // Handed over (counted busy by the giver), or given up: then the caller opens one of its own.
            let handed: PooledSymbolizer? = state.withLock { state in
                if let pooled = waiter.symbolizer.withLock({ $0.take() }) { return pooled }
                state.slots[key]?.waiters.removeAll { $0 === waiter }
                state.slots[key, default: Slot()].busy += 1
                state.statistics.open += 1
                return nil
            }
            if let handed { return handed }
        case .open:
            break
        }
        do {
            let symbolizer = try ImageSymbolizer(path: key.path, options: options.with(architecture: key.architecture),
                                                 diagnostics: diagnostics)
            symbolizer.openingDiagnostics.forEach(diagnostics.report)
            state.withLock { state in
                state.statistics.opened += 1
                if symbolizer.indexCacheFile != nil { state.statistics.indexCacheHits += 1 }
                if symbolizer.needsIndexCacheFile { state.unwrittenIndexCacheFiles += 1 }
            }
            return PooledSymbolizer(symbolizer)
        } catch {
            state.withLock { state in
                state.statistics.open -= 1
                state.slots[key]?.busy -= 1
                if let slot = state.slots[key], slot.busy == 0, slot.idle.isEmpty, slot.waiters.isEmpty { state.slots[key] = nil }
            }
            throw error
        }
    }

    private func checkIn(_ pooled: PooledSymbolizer, as key: Key) {
        let waiter: Waiter? = state.withLock { state in
            // To the first caller waiting for this image, still busy; else back among the idle.
            if let waiter = state.slots[key]?.waiters.first {
                state.slots[key]!.waiters.removeFirst()
                waiter.symbolizer.withLock { $0 = pooled }
                return waiter
            }
            state.slots[key, default: Slot()].busy -= 1
            state.slots[key, default: Slot()].idle.append(pooled)
            Self.closeLeastRecentlyUsed(&state, keepingAtMost: maximumOpenImages)
            return nil
        }
        waiter?.handedOver.signal()
    }

    /// Closes idle symbolizers, those of the images used longest ago first, until at most `limit` are open.
    private static func closeLeastRecentlyUsed(_ state: inout State, keepingAtMost limit: Int) {
        while state.statistics.open > limit {
            guard let oldest = state.slots.filter({ !$0.value.idle.isEmpty }).min(by: { $0.value.lastUse < $1.value.lastUse })
            else { return }
            state.slots[oldest.key]!.idle.removeFirst()
            state.statistics.open -= 1
            state.statistics.closed += 1
            if let slot = state.slots[oldest.key], slot.busy == 0, slot.idle.isEmpty, slot.waiters.isEmpty {
                state.slots[oldest.key] = nil
            }
        }
    }
}

/// A caller waiting for a busy symbolizer of an image: the one giving it back puts it here and signals.
private final class Waiter: Sendable {
    let handedOver = DispatchSemaphore(value: 0)
    let symbolizer = Mutex<PooledSymbolizer?>(nil)
}

/// The one unchecked box of the service: a symbolizer is not thread-safe, and the pool hands each to one caller at a
/// time (taken out of the pool under its lock, put back under it, lent to a symbolicator that gives it back when it
/// is released), so it never is used from two threads at once.
private final class PooledSymbolizer: @unchecked Sendable {
    let symbolizer: ImageSymbolizer

    init(_ symbolizer: ImageSymbolizer) {
        self.symbolizer = symbolizer
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

extension ImagePool: SharedImages {
    /// A symbolizer of the image for the caller alone (an idle one, or one opened now; never waited for, since a
    /// borrower may hold several images at once), or `nil` when it cannot be opened (said to ``diagnostics``).
    public func borrow(path: String, architecture: Architecture?) -> ImageSymbolizer? {
        do { return try checkOut(Key(path: path, architecture: architecture)).symbolizer } catch {
            diagnostics.report(subject: path, error.description)
            return nil
        }
    }

    /// Returns a borrowed symbolizer: to a caller waiting for its image, else among the idle.
    public func giveBack(_ symbolizer: ImageSymbolizer, path: String, architecture: Architecture?) {
        checkIn(PooledSymbolizer(symbolizer), as: Key(path: path, architecture: architecture))
    }
}
