import PostmortemCore

/// The identifier Breakpad, Tecken and the Symbolication API give a module: 33 upper-case hex digits, a GUID and
/// an age. For ELF, the GUID is the first 16 bytes of the build-id (zero-padded when shorter) read as a Windows GUID,
/// so its first three fields are byte-swapped; for Mach-O it is the UUID as it stands; the age is `0` for both.
package enum BreakpadDebugID {
    /// The debug id of an ELF build-id; `nil` for an empty one.
    package static func of(buildID: BuildID) -> String? {
        guard !buildID.bytes.isEmpty else { return nil }
        var guid = Array(buildID.bytes.prefix(16))
        guid += [UInt8](repeating: 0, count: 16 - guid.count)
        // Data1 (4 bytes), Data2 (2) and Data3 (2) are little-endian integers in a GUID.
        guid[0..<4].reverse()
        guid[4..<6].reverse()
        guid[6..<8].reverse()
        return BuildID(bytes: guid).hex.uppercased() + "0"
    }

    /// The debug id of a Mach-O UUID.
    package static func of(uuid: MachUUID) -> String {
        BuildID(bytes: uuid.bytes).hex.uppercased() + "0"
    }

    /// The debug id of an object file, by its UUID or build-id; `nil` when it has neither.
    package static func of(_ file: ObjectFile) -> String? {
        if let uuid = file.uuid { return of(uuid: uuid) }
        return file.buildID.flatMap { of(buildID: $0) }
    }

    /// `text` in the form ids are compared in (upper case), or `nil` when it is not 33 to 40 hex digits: a GUID and an
    /// age of one to eight digits.
    package static func normalized(_ text: String) -> String? {
        let upper = text.uppercased()
        guard (33...40).contains(upper.utf8.count),
            upper.utf8.allSatisfy({
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0)
            })
        else { return nil }
        return upper
    }
}
