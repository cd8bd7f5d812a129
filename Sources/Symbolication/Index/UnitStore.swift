import DWARF
import Dispatch
import Synchronization

/// The units of one debug file read so far, shared by the indexes that read it on several threads
/// (each through its own libdwarf session): every unit is read once, by the first thread that needs it,
/// and a thread that needs it meanwhile waits for that read instead of repeating it. A unit that failed
/// to read keeps its error, so it is not retried.
final class UnitStore: Sendable {
    private enum Slot {
        /// Being read by another thread, which leaves the group when done.
        case reading(DispatchGroup)
        case read(Result<FlatUnit, DWARFError>)
    }

    private let slots = Mutex<[Int: Slot]>([:])

    /// The unit at `position` when it has been read; `nil` when it has not (or is being read).
    func unitRead(at position: Int) -> Result<FlatUnit, DWARFError>? {
        slots.withLock { slots in
            if case .read(let result)? = slots[position] { return result }
            return nil
        }
    }

    /// The unit at `position`: read before, read by another thread meanwhile (waited for), or read now by `read`.
    func unit(at position: Int, read: () -> Result<FlatUnit, DWARFError>) -> Result<FlatUnit, DWARFError> {
        while true {
            let state = slots.withLock { slots -> Slot? in
                if let slot = slots[position] { return slot }
                slots[position] = .reading(Self.claim())
                return nil
            }
            switch state {
            case .read(let result)?:
                return result
            case .reading(let group)?:
                group.wait()
            case nil:
                return store(read(), at: position)
            }
        }
    }

    /// Reads the unit at `position` with `read` unless it has been read or another thread is reading it:
    /// for reading ahead of lookups on several threads at once.
    func readUnlessClaimed(at position: Int, read: () -> Result<FlatUnit, DWARFError>) {
        let claimed = slots.withLock { slots -> Bool in
            guard slots[position] == nil else { return false }
            slots[position] = .reading(Self.claim())
            return true
        }
        if claimed { _ = store(read(), at: position) }
    }

    /// A group entered once, which the claiming thread leaves when its read is stored.
    private static func claim() -> DispatchGroup {
        let group = DispatchGroup()
        group.enter()
        return group
    }

    private func store(_ result: Result<FlatUnit, DWARFError>, at position: Int) -> Result<FlatUnit, DWARFError> {
        let claim = slots.withLock { slots -> DispatchGroup? in
            defer { slots[position] = .read(result) }
            if case .reading(let group)? = slots[position] { return group }
            return nil
        }
        claim?.leave()
        return result
    }
}
