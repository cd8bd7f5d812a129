/// A run of addresses of a Breakpad record, relative to the module's base.
package struct BreakpadRange: Hashable, Sendable {
    /// The first address.
    package var address: UInt64
    /// How many bytes the run covers.
    package var size: UInt64

    /// The run of `size` bytes from `address`.
    package init(address: UInt64, size: UInt64) {
        self.address = address
        self.size = size
    }
}

/// A line record (`ADDRESS SIZE LINE FILE`): the code from `address` for `size` bytes is at `line` of file `file`.
package struct BreakpadLine: Hashable, Sendable {
    /// Where the code starts.
    package var address: UInt64
    /// How many bytes it covers: up to the next line record, the last one to the function's end.
    package var size: UInt64
    /// 0 when the code belongs to no line.
    package var line: UInt64
    /// A `FILE` record's number.
    package var file: UInt32

    /// The record of `size` bytes from `address` at `line` of file `file`.
    package init(address: UInt64, size: UInt64, line: UInt64, file: UInt32) {
        self.address = address
        self.size = size
        self.line = line
        self.file = file
    }
}

/// An `INLINE` record: a call of the `INLINE_ORIGIN` `origin`, inlined at `depth` (0: into the function itself) from
/// `callLine` of file `callFile`, whose code is `ranges`.
package struct BreakpadInline: Hashable, Sendable {
    /// 0 for a call inlined into the function itself, 1 for one inlined into that call, and so on.
    package var depth: Int
    /// The line of the call in its caller.
    package var callLine: UInt64
    /// The `FILE` number of the caller's file.
    package var callFile: UInt32
    /// The `INLINE_ORIGIN` number of the function called.
    package var origin: UInt32
    /// The code of the inlined call, by address.
    package var ranges: [BreakpadRange]

    /// The record of a call of `origin` at `depth` from `callLine` of `callFile`, covering `ranges`.
    package init(depth: Int, callLine: UInt64, callFile: UInt32, origin: UInt32, ranges: [BreakpadRange]) {
        self.depth = depth
        self.callLine = callLine
        self.callFile = callFile
        self.origin = origin
        self.ranges = ranges
    }
}

/// A `FUNC` record with its `INLINE` and line records, or a `PUBLIC` record (a symbol with no debug information).
package struct BreakpadSymbol: Hashable, Sendable {
    /// `FUNC` or `PUBLIC`.
    package enum Kind: Hashable, Sendable {
        /// A function of `size` bytes with its line records and the records of the calls inlined into it.
        case function(size: UInt64, lines: [BreakpadLine], inlines: [BreakpadInline])
        /// A symbol without debug information: it covers up to the next record.
        case publicSymbol
    }

    /// Where the function or symbol starts.
    package var address: UInt64
    /// `FUNC` or `PUBLIC`, with what each holds.
    package var kind: Kind
    /// The name shown (demangled).
    package var name: String
    /// The `m` flag: more than one function or symbol has this address (identical code folded together).
    package var isMultiple: Bool
    /// Bytes of arguments the function pops (32-bit Windows); 0 elsewhere.
    package var parameterSize: UInt64

    /// A record of `kind` at `address` named `name`.
    package init(address: UInt64, kind: Kind, name: String, isMultiple: Bool = false, parameterSize: UInt64 = 0) {
        self.address = address
        self.kind = kind
        self.name = name
        self.isMultiple = isMultiple
        self.parameterSize = parameterSize
    }

    /// True for a `PUBLIC` record.
    package var isPublic: Bool {
        if case .publicSymbol = kind { return true }
        return false
    }

    /// The bytes a `FUNC` covers; 0 for a `PUBLIC` (it covers up to the next symbol).
    package var size: UInt64 {
        if case .function(let size, _, _) = kind { return size }
        return 0
    }
}

/// The `MODULE` line: which build of which file the records describe.
package struct BreakpadModuleLine: Hashable, Sendable {
    /// `Linux`, `mac`, `windows`.
    package var operatingSystem: String
    /// `x86_64`, `arm64`, …, as Breakpad names architectures.
    package var architecture: String
    /// The Breakpad debug id (33 hexadecimal digits: a GUID and an age).
    package var debugID: String
    /// The debug file's name, without directory.
    package var name: String

    /// The line naming `name`'s build `debugID` for `architecture` on `operatingSystem`.
    package init(operatingSystem: String, architecture: String, debugID: String, name: String) {
        self.operatingSystem = operatingSystem
        self.architecture = architecture
        self.debugID = debugID
        self.name = name
    }
}
