/// Why an address or a frame stayed unresolved, as data: what was missing and where it was looked for. Its
/// description is plain and names no option of any front end; ``remedy`` is what the user can do about it, for the
/// front end to word.
public enum UnresolvedReason: Hashable, Sendable, CustomStringConvertible {
    /// No binary of the image was found: its name, the path the log gives it, and the places looked, in order;
    /// `remotely` says what a remote source answered, when one was asked.
    case noBinary(image: String, path: String?, searched: [String], remotely: String?)
    /// Binaries were found, none of them the log's: each with why it was rejected.
    case noMatchingBinary(image: String, rejected: [RejectedCandidate], remotely: String?)
    /// The frame names no image, and no binary was given for such frames.
    case noImage
    /// No load address is known for the image (named when the frame names one).
    case noLoadAddress(image: String?)
    /// The address lies outside every section of the image.
    case outsideSections(address: FileAddress, image: String)
    /// Nothing covers the address; `hasDebugInformation` tells whether there was debug information to look in.
    case notCovered(address: FileAddress, hasDebugInformation: Bool)
    /// The debug information that covers the address cannot be read: why.
    case unreadableDebugInformation(String)
    /// No record of the module's symbol file covers the address.
    case notInSymbolFile(module: String)

    /// One line, with no advice.
    public var description: String {
        switch self {
        case .noBinary(let image, let path, let searched, let remotely):
            "no binary found for \(image)" + (path.map { " (\($0))" } ?? "") + "; looked "
                + searched.joined(separator: ", ")
                + (remotely.map { ", and asked " + $0 } ?? "")
        case .noMatchingBinary(let image, let rejected, let remotely):
            "no binary of the log's \(image) found: " + rejected.map(\.description).joined(separator: "; ")
                + (remotely.map { ", and asked " + $0 } ?? "")
        case .noImage:
            "the frame names no image"
        case .noLoadAddress(let image):
            "no load address is known for \(image ?? "the image")"
        case .outsideSections(let address, let image):
            "address \(address) is outside every section of \(image)"
        case .notCovered(let address, let hasDebugInformation):
            hasDebugInformation
                ? "no function, line or symbol covers \(address)"
                : "no symbol covers \(address) and there is no debug information"
        case .unreadableDebugInformation(let detail):
            detail
        case .notInSymbolFile(let module):
            "no FUNC or PUBLIC record of \(module) covers it"
        }
    }

    /// What the user can do about it, when something can be done.
    public var remedy: Remedy? {
        switch self {
        case .noBinary: .giveBinary
        case .noMatchingBinary(_, let rejected, _):
            rejected.contains { if case .needsSlice = $0.reason { true } else { false } }
                ? .chooseSlice : .giveCrashedBuild
        case .noImage: .giveBinaryForFramesWithoutImage
        case .noLoadAddress: .giveLoadAddress
        case .notCovered(_, let hasDebugInformation): hasDebugInformation ? nil : .giveDebugFile
        case .outsideSections, .unreadableDebugInformation, .notInSymbolFile: nil
        }
    }
}

/// A file found for an image and not used: where, how it was found, and why not.
public struct RejectedCandidate: Hashable, Sendable, CustomStringConvertible {
    /// Why a candidate was not used.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// Not an object file this tool reads.
        case notAnObjectFile
        /// Of another build: the identifiers it has (empty when none), and the one the log gives.
        case otherBuild(found: [String], wanted: String)
        /// A universal file, and nothing tells which of its slices (named) is the log's.
        case needsSlice(architectures: [String])
        /// It could not be read.
        case unreadable
        /// It disagrees with the log's frames: how.
        case disagrees(String)

        /// The reason in words.
        public var description: String {
            switch self {
            case .notAnObjectFile: "not an object file this tool reads"
            case .otherBuild(let found, let wanted):
                "build-id or UUID \(found.isEmpty ? "(none)" : found.joined(separator: ", ")) does not match \(wanted) in the log"
            case .needsSlice(let architectures):
                "a universal file (\(architectures.joined(separator: ", "))) and the log names no slice"
            case .unreadable: "could not be read"
            case .disagrees(let detail): detail
            }
        }
    }

    /// The file.
    public var path: String
    /// How it was found (`beside the log`, `from debuginfod`, …).
    public var origin: String
    /// Why it was not used.
    public var reason: Reason

    /// `path`, found as `origin` says, not used for `reason`.
    public init(path: String, origin: String, reason: Reason) {
        self.path = path
        self.origin = origin
        self.reason = reason
    }

    /// `path (origin): reason`.
    public var description: String { "\(path) (\(origin)): \(reason)" }
}
