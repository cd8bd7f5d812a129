import CrashLogs
import JSONWriting
import ObjectFiles

/// Renders address resolutions as `atos` prints them, or as one JSON object per address.
public struct ResolutionRenderer: Sendable {
    /// How much of each answer to print.
    public struct Style: Hashable, Sendable {
        /// Print every frame of the inline chain (`atos -i`), not only the outermost function.
        public var showsInlinedFrames: Bool
        /// Print full source paths, not file names (`atos -fullPath`).
        public var showsFullPaths: Bool

        public init(showsInlinedFrames: Bool = false, showsFullPaths: Bool = false) {
            self.showsInlinedFrames = showsInlinedFrames
            self.showsFullPaths = showsFullPaths
        }
    }

    public var style: Style
    /// The image name atos shows in `(in NAME)`.
    public var imageName: String

    public init(style: Style, imageName: String) {
        self.style = style
        self.imageName = imageName
    }

    /// atos lines for one address: `function (in image) (file:line)`, `symbol (in image) + offset`
    /// without line information, or the address as given when nothing covers it.
    public func text(_ resolution: AddressResolution, input: String) -> [String] {
        let frames = resolution.frames
        guard let outermost = frames.last else { return [input] }
        if style.showsInlinedFrames { return frames.map { line(for: $0, resolution: resolution, input: input) } }
        // Without -i: the outermost function, at the innermost frame's source position.
        var merged = outermost
        if let innermost = frames.first {
            merged.file = innermost.file
            merged.line = innermost.line
            merged.column = innermost.column
        }
        return [line(for: merged, resolution: resolution, input: input)]
    }

    private func line(for frame: SymbolicatedFrame, resolution: AddressResolution, input: String) -> String {
        let function = frame.function ?? input
        if let file = frame.file, frame.line > 0 || !frame.isInlined {
            return "\(function) (in \(imageName)) (\(displayPath(file)):\(frame.line))"
        }
        if !frame.isInlined, let start = resolution.functionStart, resolution.address >= start {
            return "\(function) (in \(imageName)) + \(resolution.address.rawValue - start.rawValue)"
        }
        return "\(function) (in \(imageName))"
    }

    private func displayPath(_ path: String) -> String {
        if style.showsFullPaths { return path }
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// One line of JSON: `{"address", "object", "frames": [...], "symbol", "symbolOffset"}`, frames innermost first.
    /// `fileAddress` appears when the address was given as a runtime address; `unresolvedReason` when nothing covers it.
    public func json(_ resolution: AddressResolution, input: String, object: String, runtimeAddress: UInt64?) -> String {
        var members: [(String, String)] = [("address", JSONText.quote(runtimeAddress.map { "0x" + String($0, radix: 16) } ?? resolution.address.description))]
        if runtimeAddress != nil { members.append(("fileAddress", JSONText.quote(resolution.address.description))) }
        members.append(("object", JSONText.quote(object)))
        members.append(("frames", JSONText.array(resolution.frames.map(ReportJSONRenderer.json(symbol:)))))
        members.append(("symbol", JSONText.string(resolution.symbol)))
        members.append(("symbolOffset", JSONText.number(resolution.symbolOffset)))
        if let reason = resolution.unresolvedReason { members.append(("unresolvedReason", JSONText.quote(reason))) }
        return JSONText.object(members)
    }

    /// One line of JSON for input that is not an address, so every input line gets an answer.
    public func json(invalidInput input: String, object: String, error: String) -> String {
        JSONText.object([("input", JSONText.quote(input)), ("object", JSONText.quote(object)), ("error", JSONText.quote(error))])
    }
}
