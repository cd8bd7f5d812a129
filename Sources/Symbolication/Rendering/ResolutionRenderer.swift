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

    /// Appends the atos lines for one address to `bytes`, each ending in a newline: `function (in image)
    /// (file:line)`, `symbol (in image) + offset` without line information, or the address as given when
    /// nothing covers it. Written as bytes, not lines: a batch of C++ addresses is megabytes of output.
    public func appendText(_ resolution: AddressResolution, input: String, to bytes: inout [UInt8]) {
        let frames = resolution.frames
        guard let outermost = frames.last else {
            bytes += input.utf8
            bytes.append(UInt8(ascii: "\n"))
            return
        }
        if style.showsInlinedFrames {
            for frame in frames { appendLine(for: frame, resolution: resolution, input: input, to: &bytes) }
            return
        }
        // Without -i: the outermost function, at the innermost frame's source position.
        var merged = outermost
        if let innermost = frames.first {
            merged.file = innermost.file
            merged.line = innermost.line
            merged.column = innermost.column
        }
        appendLine(for: merged, resolution: resolution, input: input, to: &bytes)
    }

    private func appendLine(for frame: SymbolicatedFrame, resolution: AddressResolution, input: String, to bytes: inout [UInt8]) {
        bytes += (frame.function ?? input).utf8
        bytes += " (in ".utf8
        bytes += imageName.utf8
        bytes.append(UInt8(ascii: ")"))
        if let file = frame.file, frame.line > 0 || !frame.isInlined {
            bytes += " (".utf8
            bytes += displayPath(file)
            bytes.append(UInt8(ascii: ":"))
            bytes += String(frame.line).utf8
            bytes.append(UInt8(ascii: ")"))
        } else if !frame.isInlined, let start = resolution.functionStart, resolution.address >= start {
            bytes += " + ".utf8
            bytes += String(resolution.address.rawValue - start.rawValue).utf8
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The path as printed: whole with `-fullPath`, else its last component.
    private func displayPath(_ path: String) -> Substring.UTF8View {
        if style.showsFullPaths { return path[...].utf8 }
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path[...].utf8 }
        return path[path.utf8.index(after: slash)...].utf8
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
