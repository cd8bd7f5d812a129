import PostmortemCore
import Synchronization

/// Where to look for the separate debug file of a stripped binary, as gdb does.
public struct DebugFileSearch: Hashable, Sendable {
    /// Roots holding `.build-id/xx/rest.debug` trees and mirrors of binary directories,
    /// searched in order; `/usr/lib/debug` comes last unless ``includesSystemRoot`` is false.
    public var roots: [String]
    /// Whether `/usr/lib/debug` is searched after ``roots``.
    public var includesSystemRoot: Bool
    /// The files below ``roots`` by build-id, read when first needed and shared by the copies of this search.
    package let catalog: BuildIDCatalog

    /// Where distributions install debug files (`/usr/lib/debug`).
    public static let systemRoot = "/usr/lib/debug"

    /// `usr/lib/debug` of the Swift toolchain on `PATH` when it has one: a toolchain installed outside `/usr` keeps the
    /// debug files it ships beside its runtime, not in the system's root. Looked for when a search first needs it (a
    /// run whose binaries carry their DWARF never does).
    public var toolchainRoot: String? { includesSystemRoot ? toolchain.root : nil }
    private let toolchain = ToolchainDebugRoot()

    /// A search of `roots`, then of `/usr/lib/debug` and the Swift toolchain's debug folder unless told otherwise.
    public init(roots: [String] = [], includesSystemRoot: Bool = true) {
        self.roots = roots
        self.includesSystemRoot = includesSystemRoot
        catalog = BuildIDCatalog()
    }

    var allRoots: [String] {
        includesSystemRoot ? roots + [Self.systemRoot] + (toolchainRoot.map { [$0] } ?? []) : roots
    }

    /// Two searches are alike when they search the same roots (their catalogs hold what the roots hold).
    public static func == (lhs: DebugFileSearch, rhs: DebugFileSearch) -> Bool {
        lhs.roots == rhs.roots && lhs.includesSystemRoot == rhs.includesSystemRoot
    }

    /// Hashes what ``==`` compares: the roots, not the catalog.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(roots)
        hasher.combine(includesSystemRoot)
    }
}

/// The outcome of looking for a debug file: the file found, and each candidate passed over with why.
package struct DebugFileLookup: Sendable {
    /// A candidate that was rejected: it exists, but belongs to another build.
    package struct Rejection: Hashable, Sendable {
        /// The candidate's path.
        package var path: String
        /// Why it was passed over (another build-id, a CRC that does not match).
        package var reason: String
    }

    /// The debug file found; `nil` when none was.
    package var debugFile: ObjectFile?
    /// Each candidate passed over, with why.
    package var rejections: [Rejection]
    /// Where the debug file came from when it was fetched (`debuginfod http://…`); `nil` for a file found here.
    package var origin: String?
    /// Why the remote source had no debug file, when one was asked.
    package var unavailableRemotely: String?

    /// The outcome of a search: `debugFile` (if found), what was passed over, and where a fetched file came from.
    package init(
        debugFile: ObjectFile?, rejections: [Rejection], origin: String? = nil, unavailableRemotely: String? = nil
    ) {
        self.debugFile = debugFile
        self.rejections = rejections
        self.origin = origin
        self.unavailableRemotely = unavailableRemotely
    }
}

/// The Swift toolchain's `usr/lib/debug`, found once, by the first search that needs it; shared by copies of a search.
private final class ToolchainDebugRoot: Sendable {
    private let found = Mutex<String??>(nil)

    var root: String? {
        if let known = found.withLock({ $0 }) { return known }
        let root = SystemLibrarySearch.swiftRuntimeFolder().map { FileSystem.realPath($0 + "/../../debug") }
            .flatMap { FileSystem.isDirectory($0) && $0 != DebugFileSearch.systemRoot ? $0 : nil }
        found.withLock { $0 = .some(root) }
        return root
    }
}
