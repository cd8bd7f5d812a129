import ObjectFiles
import PostmortemCore

/// One compile unit's header and top-level attributes: enough to know which addresses it covers,
/// read without touching the unit's other DIEs or its line table.
package struct CompileUnit: Hashable, Sendable {
    /// The offset of the unit's DIE in `.debug_info`, which names the unit for later reads.
    package var dieOffset: UInt64
    /// The DWARF version of the unit header (2 to 5).
    package var version: Int
    /// `DW_AT_name`: the primary source file, as the compiler recorded it.
    package var name: String?
    /// `DW_AT_comp_dir`: the directory relative paths are relative to.
    package var compilationDirectory: String?
    /// `DW_AT_producer`, the compiler and its version.
    package var producer: String?
    /// The code addresses the unit covers (`DW_AT_low_pc`/`high_pc` or `DW_AT_ranges`); empty when unknown.
    package var ranges: [AddressRange]

    /// A unit as its header and DIE describe it.
    package init(
        dieOffset: UInt64, version: Int, name: String?, compilationDirectory: String?, producer: String?,
        ranges: [AddressRange]
    ) {
        self.dieOffset = dieOffset
        self.version = version
        self.name = name
        self.compilationDirectory = compilationDirectory
        self.producer = producer
        self.ranges = ranges
    }
}
