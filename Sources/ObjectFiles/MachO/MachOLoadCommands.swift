import PostmortemCore

/// What the load commands of one Mach-O image say: segments and sections, UUID, platform, symbol table.
struct MachOLoadCommands {
    static let segment32: UInt32 = 0x1
    static let symbolTable: UInt32 = 0x2
    static let segment64: UInt32 = 0x19
    static let uuidCommand: UInt32 = 0x1B
    static let buildVersion: UInt32 = 0x32

    let reader: ByteReader
    let is64Bit: Bool
    private(set) var segments: [Segment] = []
    private(set) var sections: [Section] = []
    private(set) var uuid: MachUUID?
    private(set) var platform: String?
    private(set) var symbolTableLocation: (symbolOffset: Int, count: Int, stringOffset: Int, stringSize: Int)?

    init(reader: ByteReader, is64Bit: Bool) {
        self.reader = reader
        self.is64Bit = is64Bit
    }

    mutating func read(
        command: UInt32, at offset: Int, size: Int,
        malformed: (String) -> ObjectFileError
    ) throws(ObjectFileError) {
        switch command {
        case Self.segment64, Self.segment32:
            try readSegment(at: offset, size: size, is64: command == Self.segment64, malformed: malformed)
        case Self.uuidCommand:
            guard size >= 24 else { throw malformed("LC_UUID is cut short") }
            uuid = MachUUID(bytes: (0..<16).compactMap { reader.u8(at: offset + 8 + $0) })
        case Self.buildVersion:
            guard let platformCode = reader.u32(at: offset + 8), let minimum = reader.u32(at: offset + 12) else {
                throw malformed("LC_BUILD_VERSION is cut short")
            }
            platform = "\(Self.platformName(platformCode)) \(minimum >> 16).\((minimum >> 8) & 0xFF)"
        case Self.symbolTable:
            guard let symbolOffset = reader.u32(at: offset + 8), let count = reader.u32(at: offset + 12),
                let stringOffset = reader.u32(at: offset + 16), let stringSize = reader.u32(at: offset + 20)
            else {
                throw malformed("LC_SYMTAB is cut short")
            }
            let entrySize = is64Bit ? 16 : 12
            guard UInt64(symbolOffset) + UInt64(count) * UInt64(entrySize) <= UInt64(reader.bytes.count),
                UInt64(stringOffset) + UInt64(stringSize) <= UInt64(reader.bytes.count)
            else {
                throw malformed("LC_SYMTAB points past the end of the file")
            }
            symbolTableLocation = (Int(symbolOffset), Int(count), Int(stringOffset), Int(stringSize))
        default:
            break
        }
    }

    private mutating func readSegment(
        at offset: Int, size: Int, is64: Bool,
        malformed: (String) -> ObjectFileError
    ) throws(ObjectFileError) {
        func word(_ at: Int) -> UInt64? { is64 ? reader.u64(at: at) : reader.u32(at: at).map(UInt64.init) }
        let wordSize = is64 ? 8 : 4
        let fields = offset + 24
        guard let name = reader.fixedString(at: offset + 8, length: 16), let address = word(fields),
            let memorySize = word(fields + wordSize), let fileOffset = word(fields + 2 * wordSize),
            let fileSize = word(fields + 3 * wordSize),
            let initialProtection = reader.u32(at: fields + 4 * wordSize + 4),
            let sectionCount = reader.u32(at: fields + 4 * wordSize + 8)
        else {
            throw malformed("segment command at byte \(offset) is cut short")
        }
        segments.append(
            Segment(
                name: name, virtualAddress: FileAddress(address), memorySize: memorySize, fileOffset: fileOffset,
                fileSize: fileSize,
                isExecutable: initialProtection & 4 != 0, isWritable: initialProtection & 2 != 0, alignment: 1))
        let headerSize = is64 ? 72 : 56
        let sectionSize = is64 ? 80 : 68
        guard headerSize + Int(sectionCount) * sectionSize <= size else {
            throw malformed("segment \(name) lists \(sectionCount) sections that do not fit in its command")
        }
        let unloaded: Set<String> = ["__PAGEZERO", "__DWARF", "__LINKEDIT"]
        for index in 0..<Int(sectionCount) {
            let at = offset + headerSize + index * sectionSize
            // Sections carry their own segment name: object files put every section in one unnamed segment.
            guard let sectionName = reader.fixedString(at: at, length: 16),
                let segmentName = reader.fixedString(at: at + 16, length: 16),
                let sectionAddress = word(at + 32),
                let sectionBytes = word(at + 32 + wordSize), let sectionOffset = reader.u32(at: at + 32 + 2 * wordSize),
                let flags = reader.u32(at: at + 32 + 2 * wordSize + 16)
            else {
                throw malformed("section \(index) of segment \(name) is cut short")
            }
            let type = flags & 0xFF
            let isZeroFill = type == 0x1 || type == 0xC || type == 0x12
            sections.append(
                Section(
                    name: "\(segmentName),\(sectionName)", address: FileAddress(sectionAddress), size: sectionBytes,
                    fileOffset: UInt64(sectionOffset),
                    isAllocated: !unloaded.contains(name) && !unloaded.contains(segmentName) && sectionBytes > 0,
                    isExecutable: flags & 0x8000_0400 != 0, isWritable: initialProtection & 2 != 0, isCompressed: false,
                    occupiesFile: !isZeroFill && sectionOffset != 0))
        }
    }

    static func platformName(_ code: UInt32) -> String {
        switch code {
        case 1: "macos"
        case 2: "ios"
        case 3: "tvos"
        case 4: "watchos"
        case 5: "bridgeos"
        case 6: "maccatalyst"
        case 7: "ios-simulator"
        case 8: "tvos-simulator"
        case 9: "watchos-simulator"
        case 10: "driverkit"
        case 11: "visionos"
        case 12: "visionos-simulator"
        default: "platform-\(code)"
        }
    }
}
