import ObjectFiles
public import PostmortemCore

/// A function with code in one unit: a concrete subprogram, or one inlined copy of a function
/// (`DW_TAG_inlined_subroutine`) nested in another record.
public struct FunctionRecord: Hashable, Sendable {
    /// The short name (`DW_AT_name`); found through `DW_AT_abstract_origin` and `DW_AT_specification`
    /// once ``DWARFFile/completingNames(_:)`` has completed the record.
    public var name: String?
    /// The mangled name (`DW_AT_linkage_name`), found the same way; `nil` for C functions.
    public var linkageName: String?
    /// The code addresses of this record.
    public var ranges: [AddressRange]
    /// The index, in ``UnitContents/functions``, of the record this one is nested in; `nil` for subprograms at the top.
    public var parent: Int?
    /// The number of records this one is nested in.
    public var depth: Int
    /// True for an inlined copy.
    public var isInlined: Bool
    /// For an inlined copy: where the call that was inlined sits (`DW_AT_call_file`, `call_line`, `call_column`).
    public var callFile: String?
    /// For an inlined copy: the line of the call that was inlined (`DW_AT_call_line`).
    public var callLine: Int
    /// For an inlined copy: the column of the call that was inlined (`DW_AT_call_column`).
    public var callColumn: Int
    /// `DW_AT_decl_line` of the function (through its origin): where its definition starts.
    public var declarationLine: Int
    /// The DIE (`DW_AT_abstract_origin`, else `DW_AT_specification`) whose names complete this record's;
    /// `nil` once complete. ``DWARFFile/completingNames(_:)`` follows it.
    public var nameOrigin: UInt64?

    /// A record as the DIE walk makes it.
    public init(name: String?, linkageName: String?, ranges: [AddressRange], parent: Int?, depth: Int, isInlined: Bool,
                callFile: String?, callLine: Int, callColumn: Int, declarationLine: Int, nameOrigin: UInt64? = nil) {
        self.name = name
        self.linkageName = linkageName
        self.ranges = ranges
        self.parent = parent
        self.depth = depth
        self.isInlined = isInlined
        self.callFile = callFile
        self.callLine = callLine
        self.callColumn = callColumn
        self.declarationLine = declarationLine
        self.nameOrigin = nameOrigin
    }

    /// The lowest address of the record.
    public var lowestAddress: FileAddress? { ranges.map(\.lowerBound).min() }

    /// Whether any of the record's ranges holds `address`.
    public func contains(_ address: FileAddress) -> Bool { ranges.contains { $0.contains(address) } }
}

/// Everything one unit says about code: its functions (with inlined copies) and its line table.
public struct UnitContents: Sendable {
    /// Records in DIE order: each record's inlined copies and nested functions follow it.
    public var functions: [FunctionRecord]
    /// The unit's line table.
    public var lineTable: LineTable

    /// A unit's `functions` and `lineTable`.
    public init(functions: [FunctionRecord], lineTable: LineTable) {
        self.functions = functions
        self.lineTable = lineTable
    }
}
