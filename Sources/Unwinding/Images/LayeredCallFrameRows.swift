import DWARF
import ObjectFiles
import PostmortemCore
import Synchronization

/// The call-frame information of a binary and, where the binary has none for an address, of its separate debug file:
/// code built without unwind tables (`-fno-asynchronous-unwind-tables`) has only `-g`'s `.debug_frame`, which `strip`
/// moves to the debug file with the rest of the DWARF. The debug file is looked for, and its table read, the first
/// time the binary's own table does not cover an address (gdb and elfutils read both the same way).
final class LayeredCallFrameRows: CallFrameRows {
    let path: String
    private let own: CallFrameTable?
    private let separate: Mutex<Loaded>
    private let loadSeparate: @Sendable () -> CallFrameTable?

    private enum Loaded {
        case notYet
        case done(CallFrameTable?)
    }

    /// Rows from `own` (the binary's table, `nil` when it has none), else from the table `loadSeparate` reads.
    init(path: String, own: CallFrameTable?, loadSeparate: @escaping @Sendable () -> CallFrameTable?) {
        self.path = path
        self.own = own
        self.loadSeparate = loadSeparate
        separate = Mutex(.notYet)
    }

    /// The separate debug file's table, read once; `nil` when there is none or it holds no call-frame information.
    var separateTable: CallFrameTable? {
        if case .done(let table) = separate.withLock({ $0 }) { return table }
        // Read outside the lock: another thread asking meanwhile reads it too, and the first stored is kept.
        let table = loadSeparate()
        return separate.withLock { loaded in
            if case .done(let known) = loaded { return known }
            loaded = .done(table)
            return table
        }
    }

    func row(at address: FileAddress) throws(DWARFError) -> CallFrameRow? {
        if let row = try own?.row(at: address) { return row }
        return try separateTable?.row(at: address)
    }
}
