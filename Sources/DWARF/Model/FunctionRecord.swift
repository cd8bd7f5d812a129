import ObjectFiles
import PostmortemCore

/// A function with code in one unit: a concrete subprogram, or one inlined copy of a function
/// (`DW_TAG_inlined_subroutine`) nested in another record.
package struct FunctionRecord: Hashable, Sendable {
    /// The short name (`DW_AT_name`); found through `DW_AT_abstract_origin` and `DW_AT_specification`
    /// once ``DWARFFile/completingNames(_:)`` has completed the record.
    package var name: String?
    /// The mangled name (`DW_AT_linkage_name`), found the same way; `nil` for C functions.
    package var linkageName: String?
    /// The code addresses of this record.
    package var ranges: [AddressRange]
    /// The index, in ``UnitContents/functions``, of the record this one is nested in; `nil` for subprograms at the top.
    package var parent: Int?
    /// The number of records this one is nested in.
    package var depth: Int
    /// True for an inlined copy.
    package var isInlined: Bool
    /// For an inlined copy: where the call that was inlined sits (`DW_AT_call_file`, `call_line`, `call_column`).
    package var callFile: String?
    /// For an inlined copy: the line of the call that was inlined (`DW_AT_call_line`).
    package var callLine: Int
    /// For an inlined copy: the column of the call that was inlined (`DW_AT_call_column`).
    package var callColumn: Int
    /// `DW_AT_decl_line` of the function (through its origin): where its definition starts.
    package var declarationLine: Int
    /// The DIE (`DW_AT_abstract_origin`, else `DW_AT_specification`) whose names complete this record's;
    /// `nil` once complete. ``DWARFFile/completingNames(_:)`` follows it.
    package var nameOrigin: UInt64?

    /// A record as the DIE walk makes it.
    package init(
        name: String?, linkageName: String?, ranges: [AddressRange], parent: Int?, depth: Int, isInlined: Bool,
        callFile: String?, callLine: Int, callColumn: Int, declarationLine: Int, nameOrigin: UInt64? = nil
    ) {
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
    package var lowestAddress: FileAddress? { ranges.map(\.lowerBound).min() }

    /// Whether any of the record's ranges holds `address`.
    package func contains(_ address: FileAddress) -> Bool { ranges.contains { $0.contains(address) } }
}

/// Everything one unit says about code: its functions (with inlined copies) and its line table.
package struct UnitContents: Sendable {
    /// Records in DIE order: each record's inlined copies and nested functions follow it.
    package var functions: [FunctionRecord]
    /// The unit's line table.
    package var lineTable: LineTable

    /// A unit's `functions` and `lineTable`.
    package init(functions: [FunctionRecord], lineTable: LineTable) {
        self.functions = functions
        self.lineTable = lineTable
    }
}
