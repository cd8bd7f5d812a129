import ObjectFiles
import PostmortemCore

/// One module (executable or library) a minidump lists: where it was loaded and how its debug file is identified.
package struct MinidumpModule: Hashable, Sendable {
    /// The path the process loaded it from (`code_file`).
    package var path: String
    /// Its load address.
    package var baseAddress: UInt64
    /// The size of its image in memory.
    package var size: UInt64
    /// The ELF build-id its CodeView record holds (Breakpad's and Crashpad's `BpEL` record).
    package var buildID: BuildID?
    /// The debug file's name the CodeView record gives (a PDB's name); the module's file name for ELF.
    package var debugFileName: String
    /// The PDB 7.0 GUID of a Windows module (`RSDS`), its 16 bytes as stored.
    package var pdbGUID: [UInt8]?
    /// The PDB's age.
    package var pdbAge: UInt32 = 0

    /// The module's file name (after the last `/`, or `\\` in a Windows path).
    package var name: String { Self.fileName(of: path) }

    static func fileName(of path: String) -> String {
        String(
            path.split(separator: "/", omittingEmptySubsequences: false).last?
                .split(separator: "\\", omittingEmptySubsequences: false).last ?? Substring(path))
    }

    /// Breakpad's debug id (`241665FBDA700ADE1BADBC34AA76BAAF0`): the build-id's first 16 bytes as a GUID and age 0
    /// for ELF; the PDB GUID and age for Windows.
    package var debugID: String? {
        if let buildID { return BreakpadDebugID.of(buildID: buildID) }
        guard var guid = pdbGUID else { return nil }
        guid[0..<4].reverse()
        guid[4..<6].reverse()
        guid[6..<8].reverse()
        return BuildID(bytes: guid).hex.uppercased() + String(pdbAge, radix: 16, uppercase: true)
    }

    /// The code id: the whole build-id in lower-case hex for ELF.
    package var codeID: String? { buildID?.hex }

    /// The `MINIDUMP_MODULE` entry size.
    static let entrySize = 108
    static let elfCodeViewSignature: UInt32 = 0x4270_454c // "BpEL"
    static let pdb70Signature: UInt32 = 0x5344_5352 // "RSDS"

    /// The modules of a ModuleList stream (or of an UnloadedModuleList, whose entries lack the CodeView record).
    static func modules(in bytes: MinidumpBytes, location: MinidumpLocation, warnings: inout [String])
        -> [MinidumpModule]
    {
        let list = MinidumpList(bytes, location: location, entrySize: entrySize, type: .moduleList)
        if let problem = list.problem { warnings.append(problem) }
        return list.entryOffsets.compactMap { offset in
            guard let base = bytes.u64(offset), let size = bytes.u32(offset + 8), let nameRVA = bytes.u32(offset + 20),
                let codeView = bytes.location(at: offset + 76)
            else { return nil }
            guard let path = bytes.utf16String(at: nameRVA) else {
                warnings.append(
                    "module \(list.entryOffsets.firstIndex(of: offset) ?? 0) of the ModuleList stream has a name outside the file"
                )
                return nil
            }
            var module = MinidumpModule(
                path: path, baseAddress: base, size: UInt64(size), buildID: nil,
                debugFileName: Self.fileName(of: path))
            module.readCodeView(bytes, at: codeView)
            return module
        }
    }

    /// The modules of an UnloadedModuleList stream: base, size, checksum, time stamp, name.
    static func unloadedModules(in bytes: MinidumpBytes, location: MinidumpLocation, warnings: inout [String])
        -> [MinidumpModule]
    {
        let list = MinidumpList(
            sizedHeader: bytes, location: location, minimumEntrySize: 24, countIs64Bit: false, type: .unloadedModuleList
        )
        if let problem = list.problem { warnings.append(problem) }
        return list.entryOffsets.compactMap { offset in
            guard let base = bytes.u64(offset), let size = bytes.u32(offset + 8), let nameRVA = bytes.u32(offset + 20),
                let path = bytes.utf16String(at: nameRVA)
            else { return nil }
            return MinidumpModule(
                path: path, baseAddress: base, size: UInt64(size), buildID: nil, debugFileName: Self.fileName(of: path))
        }
    }

    private mutating func readCodeView(_ bytes: MinidumpBytes, at location: MinidumpLocation) {
        guard location.size >= 4, location.size <= 1 << 16,
            let record = bytes.bytes(at: Int(location.rva), count: Int(location.size))
        else { return }
        let signature = CoreFile.word32(record, at: 0)
        if signature == Self.elfCodeViewSignature, record.count > 4 {
            buildID = BuildID(bytes: Array(record[4...]))
        } else if signature == Self.pdb70Signature, record.count >= 24 {
            pdbGUID = Array(record[4..<20])
            pdbAge = CoreFile.word32(record, at: 20)
            let name = record[24...].prefix { $0 != 0 }
            if !name.isEmpty { debugFileName = Self.fileName(of: String(decoding: name, as: UTF8.self)) }
        }
    }
}
