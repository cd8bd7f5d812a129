import ObjectFiles
import PostmortemCore

/// One row of a line table: the source position of the code starting at ``address``.
package struct LineRow: Hashable, Sendable {
    /// Where the row starts.
    package var address: FileAddress
    /// An index into ``LineTable/files``.
    package var file: UInt32
    /// 0 when the code belongs to no source line (compiler-generated).
    package var line: UInt32
    /// 0 when the compiler recorded no column.
    package var column: UInt32

    /// A row at `address`, of the file at index `file` of its table, at `line`:`column`.
    package init(address: FileAddress, file: UInt32, line: UInt32, column: UInt32) {
        self.address = address
        self.file = file
        self.line = line
        self.column = column
    }
}

/// A run of rows with increasing addresses, ending before ``endAddress`` (`DW_LNE_end_sequence`).
package struct LineSequence: Hashable, Sendable {
    /// The rows, in address order.
    package var rows: [LineRow]
    /// The address just past the sequence's last instruction.
    package var endAddress: FileAddress

    /// A sequence of `rows` ending at `endAddress`. Addresses only grow within a sequence (DWARF 5, 6.2.5.1): a row
    /// below the one before it is damage, which lookups (searching rows by address) could not get past, and is left
    /// out; the sequence ends no lower than its last row.
    package init(rows: [LineRow], endAddress: FileAddress) {
        var kept = rows
        if zip(rows, rows.dropFirst()).contains(where: { $0.address > $1.address }) {
            kept = []
            for row in rows where row.address >= (kept.last?.address ?? row.address) { kept.append(row) }
        }
        self.rows = kept
        self.endAddress = max(endAddress, kept.last?.address ?? endAddress)
    }

    /// Where the sequence starts: its first row's address.
    package var startAddress: FileAddress { rows.first?.address ?? endAddress }
    /// The addresses the sequence covers.
    package var range: AddressRange { AddressRange(startAddress, endAddress) }
}

/// A unit's line table: sequences sorted by start address, and the full paths of its files.
package struct LineTable: Sendable {
    /// The sequences, sorted by start.
    package var sequences: [LineSequence]
    /// Paths of the files rows refer to: the compile directory and include directory joined with the name.
    package var files: [String]

    /// For each sequence, the highest end address of it and every sequence before it.
    private let furthestEnd: [FileAddress]

    /// A table of `sequences` (sorted here) naming `files`.
    package init(sequences: [LineSequence], files: [String]) {
        self.sequences = sequences.sorted { $0.startAddress < $1.startAddress }
        self.files = files
        var furthest = FileAddress(0)
        furthestEnd = self.sequences.map { sequence in
            furthest = max(furthest, sequence.endAddress)
            return furthest
        }
    }

    /// A table with no rows.
    package static let empty = LineTable(sequences: [], files: [])

    /// The path of file `index`, or `nil` when the table has no such file.
    package func file(_ index: UInt32) -> String? {
        Int(index) < files.count ? files[Int(index)] : nil
    }

    /// The row that covers `address` — the last row at or before it in the sequence that holds it —
    /// and the address where the next row starts.
    /// - Complexity: O(log n).
    package func row(containing address: FileAddress) -> (row: LineRow, end: FileAddress)? {
        // The last sequence starting at or before the address; sequences may overlap (discarded code at 0).
        var low = 0, high = sequences.count
        while low < high {
            let middle = (low + high) / 2
            if sequences[middle].startAddress <= address { low = middle + 1 } else { high = middle }
        }
        var index = low - 1
        while index >= 0, furthestEnd[index] > address {
            let sequence = sequences[index]
            if sequence.range.contains(address), let found = Self.row(in: sequence, containing: address) {
                return found
            }
            index -= 1
        }
        return nil
    }

    private static func row(in sequence: LineSequence, containing address: FileAddress) -> (
        row: LineRow, end: FileAddress
    )? {
        let rows = sequence.rows
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let end = low < rows.count ? rows[low].address : sequence.endAddress
        return (rows[low - 1], end)
    }
}
