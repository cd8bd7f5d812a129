/// A run of addresses of a Breakpad record, relative to the module's base.
public struct BreakpadRange: Hashable, Sendable {
    public var address: UInt64
    public var size: UInt64

    public init(address: UInt64, size: UInt64) {
        self.address = address
        self.size = size
    }
}

/// A line record (`ADDRESS SIZE LINE FILE`): the code from `address` for `size` bytes is at `line` of file `file`.
public struct BreakpadLine: Hashable, Sendable {
    public var address: UInt64
    public var size: UInt64
    /// 0 when the code belongs to no line.
    public var line: UInt64
    /// A `FILE` record's number.
    public var file: UInt32

    public init(address: UInt64, size: UInt64, line: UInt64, file: UInt32) {
        self.address = address
        self.size = size
        self.line = line
        self.file = file
    }
}

/// An `INLINE` record: a call of the `INLINE_ORIGIN` `origin`, inlined at `depth` (0: into the function itself) from
/// `callLine` of file `callFile`, whose code is `ranges`.
public struct BreakpadInline: Hashable, Sendable {
    public var depth: Int
    public var callLine: UInt64
    public var callFile: UInt32
    public var origin: UInt32
    public var ranges: [BreakpadRange]

    public init(depth: Int, callLine: UInt64, callFile: UInt32, origin: UInt32, ranges: [BreakpadRange]) {
        self.depth = depth
        self.callLine = callLine
        self.callFile = callFile
        self.origin = origin
        self.ranges = ranges
    }
}

/// A `FUNC` record with its `INLINE` and line records, or a `PUBLIC` record (a symbol with no debug information).
public struct BreakpadSymbol: Hashable, Sendable {
    /// `FUNC` or `PUBLIC`.
    public enum Kind: Hashable, Sendable {
        case function(size: UInt64, lines: [BreakpadLine], inlines: [BreakpadInline])
        case publicSymbol
    }

    public var address: UInt64
    public var kind: Kind
    /// The name shown (demangled).
    public var name: String
    /// The `m` flag: more than one function or symbol has this address (identical code folded together).
    public var isMultiple: Bool
    /// Bytes of arguments the function pops (32-bit Windows); 0 elsewhere.
    public var parameterSize: UInt64

    public init(address: UInt64, kind: Kind, name: String, isMultiple: Bool = false, parameterSize: UInt64 = 0) {
        self.address = address
        self.kind = kind
        self.name = name
        self.isMultiple = isMultiple
        self.parameterSize = parameterSize
    }

    /// True for a `PUBLIC` record.
    public var isPublic: Bool {
        if case .publicSymbol = kind { return true }
        return false
    }

    /// The bytes a `FUNC` covers; 0 for a `PUBLIC` (it covers up to the next symbol).
    public var size: UInt64 {
        if case .function(let size, _, _) = kind { return size }
        return 0
    }
}

/// The `MODULE` line: which build of which file the records describe.
public struct BreakpadModuleLine: Hashable, Sendable {
    /// `Linux`, `mac`, `windows`.
    public var operatingSystem: String
    /// `x86_64`, `arm64`, …, as Breakpad names architectures.
    public var architecture: String
    /// The Breakpad debug id (33 hexadecimal digits: a GUID and an age).
    public var debugID: String
    /// The debug file's name, without directory.
    public var name: String

    public init(operatingSystem: String, architecture: String, debugID: String, name: String) {
        self.operatingSystem = operatingSystem
        self.architecture = architecture
        self.debugID = debugID
        self.name = name
    }
}
