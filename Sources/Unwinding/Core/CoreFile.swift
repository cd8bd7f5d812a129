import ObjectFiles
import PostmortemCore

/// An ELF core file (the kernel's, gdb's `generate-core-file`, systemd-coredump's store): its threads with their
/// registers, the signal, the mapped files and the memory it holds. The file is mapped, never read whole: a core of
/// many GB costs the pages the walk touches.
package struct CoreFile: Sendable {
    /// The path it was read from.
    package var path: String
    /// The machine the process ran on (from the core, not this host).
    package var architecture: UnwindArchitecture
    /// The threads, in the core's order: the kernel writes the thread that took the signal first.
    package var threads: [CoreThread]
    /// The files the process had mapped (`NT_FILE`), in address order.
    package var mappings: [CoreMapping]
    /// The program's name and the head of its command line (`NT_PRPSINFO`), when the core has them.
    package var process: CoreProcessInfo?
    /// The signal that ended the process, with its code and fault address (the first thread's `NT_SIGINFO`).
    package var signal: CoreSignal?
    /// The auxiliary vector (`NT_AUXV`): type → value.
    package var auxiliaryVector: [UInt64: UInt64]
    /// The memory the core holds.
    package var memory: CoreMemory
    /// What was wrong but did not stop the reading (a note cut short, a segment past the end of the file).
    package var warnings: [String]

    /// `ET_CORE`.
    static let coreType: UInt16 = 4

    /// Whether `prefix` (a file's first bytes, at least 18) starts an ELF core file.
    package static func isCore(prefix bytes: [UInt8]) -> Bool {
        guard bytes.count >= 18, bytes[0..<4].elementsEqual([0x7f, 0x45, 0x4c, 0x46]) else { return false }
        let type =
            bytes[5] == 2 ? UInt16(bytes[16]) << 8 | UInt16(bytes[17]) : UInt16(bytes[17]) << 8 | UInt16(bytes[16])
        return type == coreType
    }

    /// Reads the core at `path`.
    /// - Throws: ``DumpFileError`` when it is not an ELF core this reader knows (a 64-bit little-endian x86-64 or
    ///   AArch64 core), or its headers lie outside the file.
    package init(path: String) throws(DumpFileError) {
        try self.init(bytes: try DumpFileError.mapping(path), path: path)
    }

    /// Reads a core from `bytes` (a mapping of the file at `path`, or a copy).
    package init(bytes: ImmutableBytes, path: String) throws(DumpFileError) {
        self.path = path
        let reader = bytes.reader
        guard let magic = reader.u32(at: 0), magic == 0x464c_457f else {
            throw DumpFileError(path: path, "not an ELF file")
        }
        guard reader.u8(at: 4) == 2, reader.u8(at: 5) == 1 else {
            throw DumpFileError(
                path: path, "a 32-bit or big-endian ELF file: only 64-bit little-endian cores are read so far")
        }
        guard reader.u16(at: 16) == Self.coreType else {
            throw DumpFileError(path: path, "an ELF file, but not a core file")
        }
        let machine = reader.u16(at: 18) ?? 0
        guard let architecture = UnwindArchitecture(elfMachine: machine) else {
            throw DumpFileError(
                path: path, "a core of machine \(machine): only x86-64 and AArch64 cores are read so far")
        }
        self.architecture = architecture
        let headers = try Self.programHeaders(reader, path: path)
        var warnings: [String] = []
        var segments: [CoreMemory.Segment] = []
        var notes: [CoreNote] = []
        var (cutSegments, missingBytes) = (0, UInt64(0))
        let claimedEnd = headers.map { $0.fileOffset &+ $0.fileSize }.max() ?? 0
        for header in headers {
            switch header.type {
            case 1: // PT_LOAD
                let available =
                    header.fileOffset < UInt64(bytes.count)
                    ? min(header.fileSize, UInt64(bytes.count) - header.fileOffset) : 0
                if available < header.fileSize {
                    cutSegments += 1
                    missingBytes &+= header.fileSize - available
                }
                segments.append(
                    CoreMemory.Segment(
                        address: header.address, size: header.memorySize, fileOffset: header.fileOffset,
                        fileSize: available, isExecutable: header.flags & 1 != 0))
            case 4: // PT_NOTE
                let (read, problem) = CoreNote.notes(in: reader, offset: header.fileOffset, size: header.fileSize)
                notes += read
                if let problem { warnings.append(problem) }
            default:
                continue
            }
        }
        if cutSegments > 0 {
            warnings.append(
                "the core was truncated (\(bytes.count) bytes): \(cutSegments) of its memory segments are cut short, "
                    + "\(missingBytes) bytes missing; stacks in them cannot be walked")
        }
        memory = CoreMemory(bytes: bytes, segments: segments)
        var threads: [CoreThread] = []
        var mappings: [CoreMapping] = []
        var process: CoreProcessInfo?
        var signal: CoreSignal?
        var auxiliaryVector: [UInt64: UInt64] = [:]
        for note in notes {
            switch (note.name, note.type) {
            case ("CORE", CoreNote.prstatus):
                if let thread = CoreThread(prstatus: note.descriptor, architecture: architecture) {
                    threads.append(thread)
                } else {
                    warnings.append(
                        "a thread's registers (NT_PRSTATUS of \(note.descriptor.count) bytes) could not be read")
                }
            case ("CORE", CoreNote.siginfo):
                // One per thread; the first is the crashing thread's.
                if signal == nil { signal = CoreSignal(siginfo: note.descriptor) }
            case ("CORE", CoreNote.file):
                if let read = CoreMapping.mappings(fileNote: note.descriptor) {
                    mappings = read
                } else {
                    warnings.append("the list of mapped files (NT_FILE) could not be read")
                }
            case ("CORE", CoreNote.prpsinfo):
                process = CoreProcessInfo(prpsinfo: note.descriptor)
            case ("CORE", CoreNote.auxv):
                var offset = 0
                while offset + 16 <= note.descriptor.count {
                    let type = Self.word(note.descriptor, at: offset)
                    if type == 0 { break }
                    auxiliaryVector[type] = Self.word(note.descriptor, at: offset + 8)
                    offset += 16
                }
            default:
                continue
            }
        }
        if signal == nil, let first = threads.first, first.signal != 0 {
            signal = CoreSignal(number: first.signal, code: nil, faultAddress: nil)
        }
        if threads.isEmpty {
            throw DumpFileError(
                path: path,
                "holds no thread's registers (NT_PRSTATUS)"
                    + (claimedEnd > UInt64(bytes.count) ? ": the core was truncated" : ""))
        }
        self.threads = threads
        self.mappings = mappings.sorted { $0.start < $1.start }
        self.process = process
        self.signal = signal
        self.auxiliaryVector = auxiliaryVector
        self.warnings = warnings
    }

    /// The little-endian 64-bit word at `offset` of a note's `bytes` (0 past the end).
    static func word(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        bytes.withUnsafeBytes { ByteReader(bytes: $0).u64(at: offset) } ?? 0
    }

    /// The little-endian 32-bit word at `offset` of a note's `bytes` (0 past the end).
    static func word32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { ByteReader(bytes: $0).u32(at: offset) } ?? 0
    }

    struct ProgramHeader {
        var type: UInt32
        var flags: UInt32
        var fileOffset: UInt64
        var address: UInt64
        var fileSize: UInt64
        var memorySize: UInt64
    }

    private static func programHeaders(_ reader: ByteReader, path: String) throws(DumpFileError) -> [ProgramHeader] {
        guard let offset = reader.u64(at: 32), let entrySize = reader.u16(at: 54),
            var count = reader.u16(at: 56).map(Int.init)
        else {
            throw DumpFileError(path: path, "the ELF header is cut short")
        }
        // More than 65,534 segments: the count is in the first section header's sh_info (PN_XNUM).
        if count == 0xffff, let sections = reader.u64(at: 40), sections < UInt64(reader.bytes.count),
            let real = reader.u32(at: Int(sections) + 44)
        {
            count = Int(real)
        }
        guard entrySize >= 56, offset < UInt64(reader.bytes.count),
            UInt64(count) * UInt64(entrySize) <= UInt64(reader.bytes.count) - offset
        else {
            throw DumpFileError(
                path: path, "the program headers (\(count) of \(entrySize) bytes at \(offset)) lie outside the file")
        }
        return (0..<count).compactMap { index in
            let base = Int(offset) + index * Int(entrySize)
            guard let type = reader.u32(at: base), let flags = reader.u32(at: base + 4),
                let fileOffset = reader.u64(at: base + 8),
                let address = reader.u64(at: base + 16), let fileSize = reader.u64(at: base + 32),
                let memorySize = reader.u64(at: base + 40)
            else { return nil }
            return ProgramHeader(
                type: type, flags: flags, fileOffset: fileOffset, address: address, fileSize: fileSize,
                memorySize: memorySize)
        }
    }
}
