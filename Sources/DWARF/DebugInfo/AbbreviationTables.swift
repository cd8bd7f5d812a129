import PostmortemCore
import Synchronization

/// The abbreviation tables of one file's units, each read once for every thread. A linker joins the units of one
/// object file behind one table (a thousand units of a Swift binary share its first), and the unit list reads every
/// unit's DIE: reading the table again for each unit cost as much as the rest of opening the file.
final class AbbreviationTables: Sendable {
    /// Tables are kept by where they start and how their units size values (a table read for 4-byte addresses does
    /// not serve a unit with 8-byte ones).
    private struct Key: Hashable {
        let offset: Int
        let addressSize: Int
        let offsetSize: Int
        let version: Int

        init(_ header: UnitHeader) {
            offset = header.abbreviationOffset
            addressSize = header.addressSize
            offsetSize = header.offsetSize
            version = header.version
        }
    }

    private struct State {
        var tables: [Key: Abbreviations] = [:]
        /// Tables a unit DIE alone was read with once: a second unit that shares one has the whole table read and kept.
        var readInPart: Set<Key> = []
    }

    private let state = Mutex(State())

    /// The table of `header`'s unit, from `section`. With `last` (the code of the unit DIE's abbreviation, when only
    /// that DIE is read), a table no other unit has asked for is read up to that abbreviation and not kept: most units
    /// of a C or C++ binary have a table of their own, read further only when the unit is.
    func table(of header: UnitHeader, in section: ByteReader, through last: UInt64?) throws(Abbreviations.Failure)
        -> Abbreviations
    {
        let key = Key(header)
        let (known, firstPartialRead) = state.withLock { state -> (Abbreviations?, Bool) in
            if let table = state.tables[key] { return (table, false) }
            return (nil, last != nil && state.readInPart.insert(key).inserted)
        }
        if let known { return known }
        if firstPartialRead { return try Abbreviations(section, header: header, through: last) }
        let whole: Abbreviations
        do { whole = try Abbreviations(section, header: header) } catch {
            // A table damaged past the unit DIE's abbreviation still serves that DIE, as it did read in part.
            guard last != nil else { throw error }
            return try Abbreviations(section, header: header, through: last)
        }
        return state.withLock { state in
            if let table = state.tables[key] { return table }
            state.tables[key] = whole
            return whole
        }
    }
}
