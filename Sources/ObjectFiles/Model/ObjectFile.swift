import PostmortemCore

/// The container format of an object file.
public enum ObjectFormat: String, Hashable, Sendable {
    case elf = "ELF"
    case machO = "Mach-O"
}

/// What an ELF file is for (`e_type`).
public enum ObjectKind: String, Hashable, Sendable {
    case executable
    /// A shared library (`ET_DYN`).
    case sharedObject = "shared object"
    /// A position-independent executable (`ET_DYN` with `DF_1_PIE`): loaded anywhere, as a shared library is.
    case positionIndependentExecutable = "position-independent executable"
    case relocatable
    case core
    /// A companion file that holds only debug information (a dSYM's `MH_DSYM`).
    case debugCompanion = "debug companion"
    case other
}

/// The identity and layout of one binary or debug file: what symbolication needs before any DWARF.
///
/// Reading one costs its headers and notes only; symbol tables are read on demand
/// (``ObjectFileReader/symbolTable(of:)``) and DWARF by the `DWARF` module.
public struct ObjectFile: Hashable, Sendable {
    /// The path the file was read from.
    public var path: String
    /// ELF or Mach-O.
    public var format: ObjectFormat
    /// What sort of file it is: executable, position-independent executable, shared object, relocatable object, core,
    /// debug companion or other.
    public var kind: ObjectKind
    /// The machine the code is for (the slice's, in a universal file).
    public var architecture: Architecture
    /// Whether addresses are 64 bits wide.
    public var is64Bit: Bool
    /// True for a big-endian ELF file (s390x, say); Mach-O files here are all little-endian.
    public var isBigEndian: Bool
    /// The ELF build-id note, which ties a binary to its debug file.
    public var buildID: BuildID?
    /// The `LC_UUID` of a Mach-O image: what ties a binary to its dSYM.
    public var uuid: MachUUID?
    /// The platform and minimum OS `LC_BUILD_VERSION` names (`macos 11.0`), for Mach-O.
    public var platform: String?
    /// Where this image lies in its file: the whole file, or one slice of a universal (fat) file.
    public var slice: FileSlice?
    /// The sections, in header order.
    package var sections: [Section]
    /// The `PT_LOAD` segments, in file order.
    package var segments: [Segment]
    /// The `.gnu_debuglink` section, naming the debug file of a stripped ELF binary.
    package var debugLink: DebugLink?
    /// `.gnu_debugaltlink` or `.debug_sup`: the file dwz moved this debug file's common DWARF to.
    package var supplementaryLink: SupplementaryLink?
    /// In a DWARF 5 supplementary file (`.debug_sup` with `is_supplementary` set), the checksum that files linking
    /// to it state; dwz writes no build-id note in such a file.
    package var supplementaryChecksum: BuildID?

    /// An object file as a reader finds it.
    package init(
        path: String, format: ObjectFormat, kind: ObjectKind, architecture: Architecture, is64Bit: Bool,
        isBigEndian: Bool = false, buildID: BuildID? = nil, uuid: MachUUID? = nil, platform: String? = nil,
        slice: FileSlice? = nil,
        sections: [Section], segments: [Segment], debugLink: DebugLink? = nil,
        supplementaryLink: SupplementaryLink? = nil, supplementaryChecksum: BuildID? = nil
    ) {
        self.path = path
        self.format = format
        self.kind = kind
        self.architecture = architecture
        self.is64Bit = is64Bit
        self.isBigEndian = isBigEndian
        self.buildID = buildID
        self.uuid = uuid
        self.platform = platform
        self.slice = slice
        self.sections = sections
        self.segments = segments
        self.debugLink = debugLink
        self.supplementaryLink = supplementaryLink
        self.supplementaryChecksum = supplementaryChecksum
    }

    /// The file's name without its directory.
    public var fileName: String {
        FilePath.fileName(of: path)
    }

    /// The image base that load addresses are relative to: the `__TEXT` segment's address (Mach-O),
    /// or the first loadable segment's, rounded down to its alignment (ELF; 0 for most PIEs and libraries).
    public var imageBase: FileAddress {
        if format == .machO { return segments.first { $0.name == "__TEXT" }?.virtualAddress ?? FileAddress(0) }
        guard let first = segments.min(by: { $0.virtualAddress < $1.virtualAddress }) else { return FileAddress(0) }
        let alignment = first.alignment > 1 && first.alignment.nonzeroBitCount == 1 ? first.alignment : 1
        return FileAddress(first.virtualAddress.rawValue & ~(alignment - 1))
    }

    /// True when the file carries DWARF line or unit information in its own sections.
    public var hasDWARF: Bool {
        let names = [dwarfSectionName("info"), ".zdebug_info"]
        return sections.contains { names.contains($0.name) && $0.occupiesFile && $0.size > 0 }
    }

    /// The name a DWARF section has in this format: `.debug_line` in ELF, `__DWARF,__debug_line` in Mach-O.
    /// - Parameter suffix: the part after `debug_`, such as `line`.
    package func dwarfSectionName(_ suffix: String) -> String {
        format == .machO ? "__DWARF,__debug_\(suffix)" : ".debug_\(suffix)"
    }

    /// The build-id (ELF) or UUID (Mach-O) that names this build, as text.
    public var identifier: String? { uuid?.description ?? buildID?.hex }

    /// The build-id (ELF) or UUID (Mach-O) that names this build.
    public var identity: ImageIdentifier? { uuid.map(ImageIdentifier.uuid) ?? buildID.map(ImageIdentifier.buildID) }

    /// The section named `name`.
    package func section(named name: String) -> Section? {
        sections.first { $0.name == name }
    }

    /// The allocated section that holds `address`.
    /// - Complexity: O(number of sections).
    package func section(containing address: FileAddress) -> Section? {
        sections.first { $0.isAllocated && $0.size > 0 && $0.addressRange.contains(address) }
    }
}
