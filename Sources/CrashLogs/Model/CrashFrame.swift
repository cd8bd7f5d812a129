import PostmortemCore

/// What kind of address a frame holds, which decides where it is looked up.
public enum AddressKind: String, Hashable, Sendable {
    /// The exact instruction (the crashing frame, a frame after a signal trampoline): looked up as is.
    case programCounter
    /// A return address: looked up at `address - 1`, so a call at the end of a function resolves to its caller's line.
    case returnAddress
    /// Already moved to the call instruction by the producer (sanitizers print `pc - 1`): looked up as is.
    case adjustedReturnAddress
}

/// One frame of a stack, as the log gives it, and what symbolication added.
public struct CrashFrame: Hashable, Sendable {
    /// The frame's number in its stack, as printed (or its position when the log numbers none).
    public var index: Int
    /// The runtime address; `nil` when the log gives none.
    public var address: UInt64?
    /// Whether ``address`` is the instruction itself or a return address, which decides where it is looked up.
    public var addressKind: AddressKind
    /// The image the frame is in: an index into ``CrashReport/images``.
    public var image: Int?
    /// The address relative to the image's load bias, when the log gives it (`module+0xoff`).
    public var imageOffset: UInt64?
    /// The symbol the log already names (`sym` of `sym+0xoff`), and the offset into it.
    public var symbolInLog: String?
    /// How far into ``symbolInLog`` the log says the address lies.
    public var symbolOffsetInLog: UInt64?
    /// True when the log already names the frame's source position (a debugger's `at file:line`):
    /// symbolication leaves it alone, so inlined frames the debugger printed are not printed twice.
    public var isSymbolicatedInLog = false
    /// The source position the log names for the frame (a debugger's `at file:line`), when it names one.
    public var sourceInLog: SourceInLog?
    /// Which line of the log holds the frame (0-based).
    public var lineNumber: Int
    /// How that line was written, as its parser recorded: how a renderer writes it again.
    public var lineStyle: FrameLineStyle
    /// For frames inside a JSON document (`.ips`): the bytes of the frame's object in the log.
    public var byteRange: Range<Int>?
    /// The inline chain found by symbolication, innermost first; empty until then, or when unresolved.
    public var symbols: [SymbolicatedFrame]
    /// How far the address lies into the outermost function, when symbolication found where it starts.
    public var functionOffset: UInt64?
    /// The address symbolication looked up, in the binary's own numbering (a return address less one): what to give
    /// another tool (`llvm-symbolizer --obj=BINARY`, `addr2line -e`) to ask the same question.
    public var lookupAddress: UInt64?
    /// Why symbolication found nothing, when it tried.
    public var unresolvedReason: UnresolvedReason?
    /// How an unwinder found the frame, for stacks Postmortem walked itself (a core's); `nil` for a log's frames.
    public var trust: FrameTrust?
    /// What the log says the frame is, where it says more than an address and a name: a call inlined into the next
    /// frame, an async function's caller.
    public var markInLog: FrameMarkInLog?
    /// The build-id (hex) of the debug information that resolved the frame, when it has one: what its source files
    /// are asked for by (debuginfod's `/buildid/ID/source/PATH`).
    public var resolvedBuildID: String?

    /// Whether `name` is one a debugger made up for code no symbol covers (lldb's `___lldb_unnamed_symbol7808`,
    /// `___lldb_unnamed_symbol1$$App`): no symbol table has it, and it names nothing another tool would.
    public static func isDebuggerMadeName(_ name: String) -> Bool { name.hasPrefix("___lldb_unnamed_symbol") }

    /// A frame as a parser reads it; what symbolication adds starts empty.
    public init(
        index: Int, address: UInt64?, addressKind: AddressKind, image: Int?, imageOffset: UInt64?,
        symbolInLog: String? = nil, symbolOffsetInLog: UInt64? = nil, lineNumber: Int,
        lineStyle: FrameLineStyle = .glibc
    ) {
        self.index = index
        self.address = address
        self.addressKind = addressKind
        self.image = image
        self.imageOffset = imageOffset
        self.symbolInLog = symbolInLog
        self.symbolOffsetInLog = symbolOffsetInLog
        self.lineNumber = lineNumber
        self.lineStyle = lineStyle
        self.byteRange = nil
        self.symbols = []
        self.functionOffset = nil
        self.unresolvedReason = nil
    }
}

/// What a log says a frame is, beyond its address and name.
public enum FrameMarkInLog: String, Hashable, Sendable {
    /// A call the compiler inlined into the next frame of the stack: gdb's frame above one printed without an address,
    /// a sanitizer's frame at the address of the next, lldb's `[inlined]`, the Swift backtracer's `"inlined": true`.
    case inlined
    /// An async function's caller, waiting for it to return (the Swift backtracer's `[async]`): on no thread's stack,
    /// so debuggers and stack walkers that read only the stack do not show it.
    case asyncCaller
}

/// A frame's source position as a log names it.
public struct SourceInLog: Hashable, Sendable {
    /// The file, as the log writes it.
    public var file: String
    /// The line (0 when the log gives none).
    public var line: Int

    /// `file`:`line`, as the log names them.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `FILE:LINE` or `FILE:LINE:COLUMN` as logs write a frame's place (a sanitizer's, a debugger's); `nil` when the
    /// text ends in no line.
    init?(parsing place: String) {
        // By offset over the bytes: a search of the UTF-8 view backwards stepped a string index a byte, and every
        // sanitizer frame with a place comes here.
        let bytes = place.utf8.span
        guard let last = Self.number(in: bytes, before: bytes.count) else { return nil }
        // `file:line:column`: the line is the number before the column.
        let line = Self.number(in: bytes, before: last.colon) ?? last
        self.init(file: LineBytes.text(0..<line.colon, of: place), line: line.value)
    }

    /// The number after the last `:` of `bytes` before offset `end`, and where that `:` is (not at the start).
    private static func number(in bytes: Span<UInt8>, before end: Int) -> (value: Int, colon: Int)? {
        guard let colon = LineBytes.lastOffset(of: ":", in: bytes, within: 0..<end), colon > 0,
            (1...9).contains(end - colon - 1)
        else { return nil }
        var value = 0
        for position in colon + 1..<end {
            guard bytes[position] >= 0x30, bytes[position] <= 0x39 else { return nil }
            value = value * 10 + Int(bytes[position] - 0x30)
        }
        return (value, colon)
    }
}
