/// The container format of an object file.
public enum ObjectFormat: String, Hashable, Sendable {
    case elf = "ELF"
}

/// What an ELF file is for (`e_type`).
public enum ObjectKind: String, Hashable, Sendable {
    case executable
    /// A shared library, or a position-independent executable (`ET_DYN`).
    case sharedObject = "shared object"
    case relocatable
    case core
    case other
}

/// The identity and layout of one binary or debug file: what symbolication needs before any DWARF.
///
/// Reading one costs its headers and notes only; symbol tables are read on demand
/// (``ObjectFileReader/symbolTable(of:)``) and DWARF by the `DWARF` module.
public struct ObjectFile: Hashable, Sendable {
    public var path: String
    public var format: ObjectFormat
    public var kind: ObjectKind
    public var architecture: Architecture
    public var is64Bit: Bool
    public var buildID: BuildID?
    public var sections: [Section]
    /// The `PT_LOAD` segments, in file order.
    public var segments: [Segment]
    public var debugLink: DebugLink?

    public init(path: String, format: ObjectFormat, kind: ObjectKind, architecture: Architecture, is64Bit: Bool,
                buildID: BuildID?, sections: [Section], segments: [Segment], debugLink: DebugLink?) {
        self.path = path
        self.format = format
        self.kind = kind
        self.architecture = architecture
        self.is64Bit = is64Bit
        self.buildID = buildID
        self.sections = sections
        self.segments = segments
        self.debugLink = debugLink
    }

    /// The file's name without its directory.
    public var fileName: String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    /// The address the first loadable segment starts at, rounded down to its alignment
    /// (0 for most position-independent executables and shared libraries).
    public var imageBase: FileAddress {
        guard let first = segments.min(by: { $0.virtualAddress < $1.virtualAddress }) else { return FileAddress(0) }
        let alignment = first.alignment > 1 && first.alignment.nonzeroBitCount == 1 ? first.alignment : 1
        return FileAddress(first.virtualAddress.rawValue & ~(alignment - 1))
    }

    /// True when the file carries DWARF line or unit information in its own sections.
    public var hasDWARF: Bool {
        sections.contains { section in
            (section.name == ".debug_info" || section.name == ".zdebug_info") && section.occupiesFile && section.size > 0
        }
    }

    /// The section named `name`.
    public func section(named name: String) -> Section? {
        sections.first { $0.name == name }
    }

    /// The allocated section that holds `address`.
    /// - Complexity: O(number of sections).
    public func section(containing address: FileAddress) -> Section? {
        sections.first { $0.isAllocated && $0.size > 0 && $0.addressRange.contains(address) }
    }
}
