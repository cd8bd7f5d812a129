import ObjectFiles
import PostmortemCore

/// A minidump (Microsoft's `MINIDUMP_*` layout, as Breakpad, Crashpad, sentry-native and Windows write it): its
/// threads with their registers, the modules, the memory it holds, the exception, the machine, and the Linux and
/// Crashpad streams. The file is mapped, never read whole. A stream that does not fit is named in ``warnings`` and
/// the rest is read.
package struct MinidumpFile: Sendable {
    /// The path it was read from.
    package var path: String
    /// The machine (SystemInfo), when the dump has the stream.
    package var system: MinidumpSystemInfo?
    /// The architecture the threads' contexts are of; `nil` when it is not one walked here.
    package var architecture: UnwindArchitecture?
    /// The threads, in the dump's order.
    package var threads: [MinidumpThread]
    /// The modules, in the dump's order.
    package var modules: [MinidumpModule]
    /// Modules the process had unloaded.
    package var unloadedModules: [MinidumpModule]
    /// What ended the process, when the dump is of a crash.
    package var exception: MinidumpException?
    /// The process's id and start time (MiscInfo).
    package var process: MinidumpProcessInfo?
    /// Breakpad's Linux streams.
    package var linux: MinidumpLinuxInfo
    /// Which thread wrote the dump and which asked for it (Breakpad's info stream).
    package var breakpad: MinidumpBreakpadInfo?
    /// A failed assertion's text (Breakpad's assertion stream).
    package var assertion: String?
    /// Crashpad's annotations.
    package var crashpad: CrashpadAnnotations?
    /// When the dump was written, in seconds since 1970.
    package var timeStamp: UInt32
    /// The memory the dump holds.
    package var memory: MinidumpMemory
    /// The streams present, by type code (unknown ones included), for `--json` and the raw dump.
    package var streamTypes: [UInt32]
    /// What was wrong but did not stop the reading.
    package var warnings: [String]

    /// `MDMP` little-endian.
    static let signature: UInt32 = 0x504d_444d

    /// Whether `prefix` (a file's first 4 bytes or more) starts a minidump.
    package static func isMinidump(prefix: [UInt8]) -> Bool {
        // Over an array, not any collection: generic code left unspecialized instantiates its types at run time.
        prefix.count >= 4 && prefix[0] == 0x4d && prefix[1] == 0x44 && prefix[2] == 0x4d && prefix[3] == 0x50
    }

    /// Reads the minidump at `path`.
    /// - Throws: ``DumpFileError`` when it is not a minidump or its stream directory lies outside the file.
    package init(path: String) throws(DumpFileError) {
        try self.init(bytes: try DumpFileError.mapping(path), path: path)
    }

    /// Reads a minidump from `bytes` (a mapping of the file at `path`, or a copy).
    package init(bytes storage: ImmutableBytes, path: String) throws(DumpFileError) {
        self.path = path
        let bytes = MinidumpBytes(storage: storage)
        guard bytes.u32(0) == Self.signature else {
            throw DumpFileError(path: path, "not a minidump (no MDMP signature)")
        }
        guard let count = bytes.u32(8), let directory = bytes.u32(12) else {
            throw DumpFileError(path: path, "the minidump header is cut short")
        }
        guard bytes.holds(UInt64(count) * 12, at: UInt64(directory)) else {
            throw DumpFileError(
                path: path, "its stream directory (\(count) streams at \(directory)) lies outside the file")
        }
        timeStamp = bytes.u32(20) ?? 0
        var warnings: [String] = []
        var streams: [(type: UInt32, location: MinidumpLocation)] = []
        for index in 0..<Int(count) {
            let entry = Int(directory) + index * 12
            guard let type = bytes.u32(entry), let location = bytes.location(at: entry + 4) else { continue }
            // Unused entries (type 0) are padding some writers leave.
            if type == 0 { continue }
            let name = MinidumpStreamType(rawValue: type)?.name ?? "0x" + String(type, radix: 16)
            guard bytes.holds(UInt64(location.size), at: UInt64(location.rva)) else {
                warnings.append(
                    "the \(name) stream (\(location.size) bytes at \(location.rva)) lies outside the file; it is not read"
                )
                continue
            }
            streams.append((type, location))
        }
        streamTypes = streams.map(\.type)
        // The first stream of each known type is read: a writer writes each once, and a dump that repeats one (a
        // loop a fuzzer makes) costs no more than one.
        var known: [MinidumpStreamType: MinidumpLocation] = [:]
        for stream in streams {
            guard let type = MinidumpStreamType(rawValue: stream.type) else { continue }
            if known[type] != nil {
                warnings.append("the \(type.name) stream is listed more than once; only the first is read")
                continue
            }
            known[type] = stream.location
        }
        let system = known[.systemInfo].flatMap {
            MinidumpSystemInfo.read(in: bytes, location: $0, warnings: &warnings)
        }
        self.system = system
        let declared = system.map(\.architecture) ?? nil
        var threads =
            known[.threadList].map {
                MinidumpThread.threads(in: bytes, location: $0, architecture: declared, warnings: &warnings)
            } ?? []
        // Without SystemInfo, the contexts' size tells the architecture.
        let architecture = system == nil ? threads.lazy.compactMap(\.registers?.architecture).first : declared
        self.architecture = architecture
        if let names = known[.threadNames].map({ MinidumpThread.names(in: bytes, location: $0, warnings: &warnings) }) {
            for index in threads.indices { threads[index].name = names[threads[index].id] }
        }
        if let infos = known[.threadInfoList].map({ MinidumpThread.infos(in: bytes, location: $0, warnings: &warnings) }
        ) {
            for index in threads.indices {
                guard let info = infos[threads[index].id] else { continue }
                threads[index].startAddress = info.startAddress
                threads[index].createTime = info.createTime
            }
        }
        modules = known[.moduleList].map { MinidumpModule.modules(in: bytes, location: $0, warnings: &warnings) } ?? []
        unloadedModules =
            known[.unloadedModuleList].map {
                MinidumpModule.unloadedModules(in: bytes, location: $0, warnings: &warnings)
            } ?? []
        exception = known[.exception].flatMap {
            MinidumpException.read(in: bytes, location: $0, architecture: architecture, warnings: &warnings)
        }
        process = known[.miscInfo].flatMap { MinidumpProcessInfo.read(in: bytes, location: $0) }
        var linux = MinidumpLinuxInfo()
        for type in [
            MinidumpStreamType.linuxCommandLine, .linuxEnvironment, .linuxProcStatus, .linuxLSBRelease, .linuxCPUInfo,
            .linuxMaps, .linuxAuxv, .linuxDSODebug
        ] {
            if let location = known[type] { linux.read(type, in: bytes, location: location, warnings: &warnings) }
        }
        self.linux = linux
        breakpad = known[.breakpadInfo].flatMap { MinidumpBreakpadInfo.read(in: bytes, location: $0) }
        assertion = known[.assertionInfo].flatMap { MinidumpBreakpadInfo.assertion(in: bytes, location: $0) }
        crashpad = known[.crashpadInfo].flatMap {
            CrashpadAnnotations.read(in: bytes, location: $0, warnings: &warnings)
        }
        var regions: [MinidumpMemory.Region] = []
        if let location = known[.memoryList] {
            regions += MinidumpMemory.memoryList(in: bytes, location: location, warnings: &warnings)
        }
        if let location = known[.memory64List] {
            regions += MinidumpMemory.memory64List(in: bytes, location: location, warnings: &warnings)
        }
        // A thread's stack descriptor points at its bytes; most writers list them in MemoryList too.
        regions += threads.map { thread in
            MinidumpMemory.Region(
                address: thread.stackStart, size: UInt64(thread.stackLocation.size),
                fileOffset: UInt64(thread.stackLocation.rva), source: .threadList)
        }
        let executable =
            known[.memoryInfoList].map { MinidumpMemory.executableRanges(in: bytes, location: $0, warnings: &warnings) }
            ?? linux.executableRanges
        memory = MinidumpMemory(bytes: bytes, regions: regions, executable: executable, warnings: &warnings)
        // The exception's context is the crashing thread's at the fault (the thread list has the handler's view).
        if let exception, let registers = exception.registers,
            let index = threads.firstIndex(where: { $0.id == exception.threadID })
        {
            threads[index].registers = registers
            threads[index].problem = nil
        }
        self.threads = threads
        if threads.isEmpty {
            warnings.append("the dump holds no thread" + (known[.threadList] == nil ? " (no ThreadList stream)" : ""))
        }
        self.warnings = warnings
    }
}
