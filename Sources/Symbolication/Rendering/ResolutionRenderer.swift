import CrashLogs
import ObjectFiles
import PostmortemCore

/// Renders address resolutions as `atos` prints them, or as one JSON object per address.
public struct ResolutionRenderer: Sendable {
    /// How much of each answer to print.
    public struct Style: Hashable, Sendable {
        /// Print every frame of the inline chain (`atos -i`), not only the outermost function.
        public var showsInlinedFrames: Bool
        /// Print full source paths, not file names (`atos -fullPath`).
        public var showsFullPaths: Bool

        /// A style printing the outermost function only and file names, unless told otherwise.
        public init(showsInlinedFrames: Bool = false, showsFullPaths: Bool = false) {
            self.showsInlinedFrames = showsInlinedFrames
            self.showsFullPaths = showsFullPaths
        }
    }

    /// How much of each answer is printed.
    public let style: Style
    /// The image name atos shows in `(in NAME)`.
    public let imageName: String
    /// ` (in NAME)`, as written after each function.
    private let imageNote: [UInt8]
    /// Colours for a terminal (function names, source positions); `nil` for plain text.
    public let colors: TerminalColors?

    /// A renderer of answers in `imageName`, coloured with `colors` when given.
    public init(style: Style, imageName: String, colors: TerminalColors? = nil) {
        self.style = style
        self.imageName = imageName
        self.imageNote = Array(" (in \(imageName))".utf8)
        self.colors = colors
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
        // The source around the innermost line, when it was read (`--source-context`), after the answer's lines.
        defer {
            for line in frames.first?.source?.renderedLines() ?? [] {
                bytes += line.utf8
                bytes.append(UInt8(ascii: "\n"))
            }
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

    private func appendLine(
        for frame: SymbolicatedFrame, resolution: AddressResolution, input: String, to bytes: inout [UInt8]
    ) {
        if let colors, frame.function != nil { bytes += colors.function.utf8 }
        bytes += (frame.function ?? input).utf8
        if let colors, frame.function != nil { bytes += colors.reset.utf8 }
        bytes += imageNote
        if let file = frame.file, frame.line > 0 || !frame.isInlined {
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: "("))
            if let colors { bytes += colors.location.utf8 }
            appendDisplayPath(file, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            Self.appendDecimal(frame.line, to: &bytes)
            if let colors { bytes += colors.reset.utf8 }
            bytes.append(UInt8(ascii: ")"))
        } else if !frame.isInlined, let start = resolution.functionStart, resolution.address >= start {
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: "+"))
            bytes.append(UInt8(ascii: " "))
            Self.appendDecimal(resolution.address.rawValue - start.rawValue, to: &bytes)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends `value` in decimal digits, as `String(value)` spells it, without making the string.
    static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        var divisor: UInt64 = 1
        while divisor <= value / 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }

    /// Appends `value` in decimal digits, with a minus sign when it is negative.
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDecimal(UInt64(value.magnitude), to: &bytes)
    }

    /// Appends the path as printed: whole with `-fullPath`, else its last component.
    private func appendDisplayPath(_ path: String, to bytes: inout [UInt8]) {
        var path = path // `withUTF8` may make a string's bytes contiguous first, which no Swift-made string needs
        path.withUTF8 { utf8 in
            let start = style.showsFullPaths ? 0 : (utf8.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)
            bytes += UnsafeBufferPointer(rebasing: utf8[start...])
        }
    }

    /// One line of JSON: `{"address", "object", "frames": [...], "symbol", "symbolOffset"}`, frames innermost first.
    /// `fileAddress` appears when the address was given as a runtime address; `unresolvedReason` when nothing covers it.
    public func json(_ resolution: AddressResolution, input: String, object: String, runtimeAddress: UInt64?) -> String
    {
        var members: [(String, String)] = [
            (
                "address",
                JSONText.quote(runtimeAddress.map { "0x" + String($0, radix: 16) } ?? resolution.address.description)
            )
        ]
        if runtimeAddress != nil { members.append(("fileAddress", JSONText.quote(resolution.address.description))) }
        members.append(("object", JSONText.quote(object)))
        members.append(("frames", JSONText.array(resolution.frames.map(ReportJSONRenderer.json(symbol:)))))
        members.append(("symbol", JSONText.string(resolution.symbol)))
        members.append(("symbolOffset", JSONText.number(resolution.symbolOffset)))
        if let reason = resolution.unresolvedReason {
            members.append(("unresolvedReason", JSONText.quote(reason.description)))
        }
        return JSONText.object(members)
    }

    /// One line of JSON for input that is not an address, so every input line gets an answer.
    public func json(invalidInput input: String, object: String, error: String) -> String {
        JSONText.object([
            ("input", JSONText.quote(input)), ("object", JSONText.quote(object)), ("error", JSONText.quote(error))
        ])
    }
}
