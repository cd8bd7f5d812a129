import DWARF
import Dispatch
import ObjectFiles
import PostmortemCore
import Synchronization

/// The units of one debug file read so far, shared by the threads that look up in it: a unit is read by the first
/// thread that needs it, and a thread that needs it meanwhile waits for that read instead of repeating it. A unit that failed
/// to read keeps its error, so it is not retried.
///
/// A unit read ahead of a batch may hold only what lookups of the batch's addresses need
/// (``DWARFFile/contents(of:holdingAnyOf:)``): a lookup of another address reads it again, whole; reading
/// ahead for other addresses reads it again for both (a bounded number of times, then whole).
final class UnitStore: Sendable {
    /// One reading of a unit: whole, or for some addresses only.
    struct Reading {
        let result: Result<FlatUnit, DWARFError>
        /// The addresses the unit was read for; `nil` when it was read whole.
        let targets: AddressTargets?
        /// How many readings for some addresses this one is, counting the earlier ones it replaced; 0 when whole.
        let partialReadings: Int
        /// A number no other reading of any unit of the store has: what lookups remember of a unit's records is
        /// remembered for one reading (another one numbers its records differently).
        let serial: Int

        /// Whether lookups of `address` may read this reading.
        func covers(_ address: FileAddress) -> Bool { targets?.contains(address) ?? true }
    }

    private enum Slot {
        /// Being read by another thread, which leaves the group when done.
        case reading(DispatchGroup)
        case read(Reading)
    }

    private struct State {
        var slots: [Int: Slot] = [:]
        var readings = 0
    }

    private let state = Mutex(State())

    /// The unit at `position` when it has been read whole; `nil` when it has not (or is being read).
    func unitRead(at position: Int) -> Result<FlatUnit, DWARFError>? {
        state.withLock { state in
            if case .read(let reading)? = state.slots[position], reading.targets == nil { return reading.result }
            return nil
        }
    }

    /// The reading of the unit at `position` that lookups of `address` may read, when there is one.
    func reading(at position: Int, covering address: FileAddress) -> Reading? {
        state.withLock { state in
            if case .read(let reading)? = state.slots[position], reading.covers(address) { return reading }
            return nil
        }
    }

    /// The unit at `position` for a lookup of `address`: read before (whole, or for addresses that include it),
    /// read by another thread meanwhile (waited for), or read whole now by `read`.
    func unit(at position: Int, for address: FileAddress, read: () -> Result<FlatUnit, DWARFError>) -> Reading {
        while true {
            let slot = state.withLock { state -> Slot? in
                switch state.slots[position] {
                case .read(let reading)? where reading.covers(address):
                    return .read(reading)
                case .reading(let group)?:
                    return .reading(group)
                default:
                    state.slots[position] = .reading(Self.claim())
                    return nil
                }
            }
            switch slot {
            case .read(let reading)?:
                return reading
            case .reading(let group)?:
                group.wait()
            case nil:
                return store(read(), targets: nil, partialReadings: 0, at: position)
            }
        }
    }

    /// How many times a unit is read for some addresses before a batch with others in it reads it whole.
    static let partialReadingsPerUnit = LookupTuning.partialReadingsPerUnit

    /// Reads the unit at `position` ahead of lookups, for `targets` (`nil`: whole), unless it has been read for them
    /// (or whole) or another thread is reading it. A unit read before for other addresses is read again for those and
    /// these, up to ``partialReadingsPerUnit`` times, then whole. `read` gets what to read the unit for.
    func readUnlessCovered(
        at position: Int, for targets: AddressTargets?, read: (AddressTargets?) -> Result<FlatUnit, DWARFError>
    ) {
        let claimed = state.withLock { state -> (wanted: AddressTargets?, partialReadings: Int)? in
            var wanted = targets
            var partialReadings = targets == nil ? 0 : 1
            switch state.slots[position] {
            case nil:
                break
            case .read(let reading)?:
                guard let earlier = reading.targets else { return nil }
                if let targets, earlier.contains(allOf: targets) { return nil }
                if let targets, reading.partialReadings < Self.partialReadingsPerUnit {
                    wanted = earlier.union(targets)
                    partialReadings = reading.partialReadings + 1
                } else {
                    (wanted, partialReadings) = (nil, 0)
                }
            case .reading?:
                return nil
            }
            state.slots[position] = .reading(Self.claim())
            return (wanted, partialReadings)
        }
        if let claimed {
            _ = store(
                read(claimed.wanted), targets: claimed.wanted, partialReadings: claimed.partialReadings, at: position)
        }
    }

    /// A group entered once, which the claiming thread leaves when its read is stored.
    private static func claim() -> DispatchGroup {
        let group = DispatchGroup()
        group.enter()
        return group
    }

    private func store(
        _ result: Result<FlatUnit, DWARFError>, targets: AddressTargets?, partialReadings: Int, at position: Int
    ) -> Reading {
        let (reading, claim) = state.withLock { state -> (Reading, DispatchGroup?) in
            state.readings += 1
            let reading = Reading(
                result: result, targets: targets, partialReadings: partialReadings, serial: state.readings)
            var claim: DispatchGroup?
            if case .reading(let group)? = state.slots[position] { claim = group }
            state.slots[position] = .read(reading)
            return (reading, claim)
        }
        claim?.leave()
        return reading
    }
}
