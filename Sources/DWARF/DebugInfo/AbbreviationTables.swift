import PostmortemCore
import Synchronization

/// The abbreviations that units' DIEs are read with when only the unit DIE is read (the unit list), each read once for
/// every thread. A linker joins the units of one object file behind one table (a thousand units of a Swift binary
/// share its first), and reading the table up to the unit DIE's abbreviation again for each unit cost as much as the
/// rest of opening the file. Only that abbreviation is kept, not the whole table (a Vapor server's tables, kept whole,
/// took megabytes), and only for a table two units share.
final class AbbreviationTables: Sendable {
    /// A table is known by where it starts, how its units size values (a table read for 4-byte addresses does not serve
    /// a unit with 8-byte ones) and the abbreviation the unit DIE uses.
    private struct Key: Hashable {
        let offset: Int
        let addressSize: Int
        let offsetSize: Int
        let version: Int
        let unitDIECode: UInt64
    }

    private struct State {
        var tables: [Key: Abbreviations] = [:]
        /// Tables one unit has asked for: kept only when a second one does (most units of a C binary, or of a Swift
        /// one built without whole-module optimization, have a table of their own, and keeping those took megabytes).
        var askedOnce: Set<Key> = []
    }

    private let state = Mutex(State())

    /// The table of `header`'s unit from `section`, up to abbreviation `last` (the code of the unit DIE's), kept for
    /// the next unit that shares it.
    func table(of header: UnitHeader, in section: ByteReader, through last: UInt64) throws(Abbreviations.Failure)
        -> Abbreviations
    {
        let key = Key(
            offset: header.abbreviationOffset, addressSize: header.addressSize, offsetSize: header.offsetSize,
            version: header.version, unitDIECode: last)
        let (known, isFirst) = state.withLock { state -> (Abbreviations?, Bool) in
            if let table = state.tables[key] { return (table, false) }
            return (nil, state.askedOnce.insert(key).inserted)
        }
        if let known { return known }
        let table = try Abbreviations(section, header: header, through: last)
        guard !isFirst else { return table }
        return state.withLock { state in
            if let known = state.tables[key] { return known }
            state.tables[key] = table
            return table
        }
    }
}
