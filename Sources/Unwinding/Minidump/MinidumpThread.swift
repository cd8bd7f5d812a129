/// One thread of a minidump: its id, name, registers and stack.
package struct MinidumpThread: Hashable, Sendable {
    /// The thread's id (the kernel's tid on Linux).
    package var id: UInt32
    /// Its name, from the ThreadNames stream (Crashpad writes it), when known.
    package var name: String?
    /// Its registers when the dump was written; `nil` with ``problem`` when its context could not be read.
    package var registers: RegisterSet?
    /// Where its stack memory starts and how many bytes the dump holds of it.
    package var stackStart: UInt64
    /// The size of its stack memory in the dump.
    package var stackSize: UInt32 { stackLocation.size }
    /// Why its registers are missing.
    package var problem: String?
    /// Where the thread began running and when (ThreadInfoList: Windows' writers and some others keep it).
    package var startAddress: UInt64?
    /// When the thread was created, as a Windows `FILETIME` (100 ns since 1601); 0 when the writer did not say.
    package var createTime: UInt64?
    /// Where the dump holds its stack's bytes.
    var stackLocation: MinidumpLocation

    /// The `MINIDUMP_THREAD` entry size: id, suspend count, priority class, priority, TEB, stack descriptor, context.
    static let entrySize = 48

    /// The threads of a ThreadList stream.
    static func threads(
        in bytes: MinidumpBytes, location: MinidumpLocation, architecture: UnwindArchitecture?,
        warnings: inout [String]
    ) -> [MinidumpThread] {
        let list = MinidumpList(bytes, location: location, entrySize: entrySize, type: .threadList)
        if let problem = list.problem { warnings.append(problem) }
        return list.entryOffsets.compactMap { offset in
            guard let id = bytes.u32(offset), let stackStart = bytes.u64(offset + 24),
                let stack = bytes.location(at: offset + 32),
                let context = bytes.location(at: offset + 40)
            else { return nil }
            var thread = MinidumpThread(
                id: id, name: nil, registers: nil, stackStart: stackStart, problem: nil,
                stackLocation: stack)
            switch MinidumpThread.registers(in: bytes, context: context, architecture: architecture) {
            case .success(let registers): thread.registers = registers
            case .failure(let problem): thread.problem = problem.description
            }
            return thread
        }
    }

    /// The registers of the context at `context`.
    static func registers(
        in bytes: MinidumpBytes, context: MinidumpLocation,
        architecture: UnwindArchitecture?
    ) -> Result<RegisterSet, MinidumpStreamProblem> {
        guard let raw = bytes.bytes(at: Int(context.rva), count: Int(context.size)) else {
            return .failure(
                MinidumpStreamProblem("its context (\(context.size) bytes at \(context.rva)) lies outside the file"))
        }
        guard let architecture = architecture ?? MinidumpContext.architecture(contextSize: raw.count) else {
            return .failure(
                MinidumpStreamProblem(
                    "its context (\(raw.count) bytes) is of an architecture not walked here (x86-64 and ARM64 are)"))
        }
        return MinidumpContext.registers(raw, architecture: architecture).mapError {
            MinidumpStreamProblem($0.description)
        }
    }

    /// The start address and creation time of each thread a ThreadInfoList stream lists, by thread id
    /// (`MINIDUMP_THREAD_INFO`: id, dump flags, dump error, exit status, then creation, exit, kernel and user times, the
    /// start address and the affinity).
    static func infos(
        in bytes: MinidumpBytes, location: MinidumpLocation,
        warnings: inout [String]
    ) -> [UInt32: (startAddress: UInt64, createTime: UInt64)] {
        let list = MinidumpList(
            sizedHeader: bytes, location: location, minimumEntrySize: 64, countIs64Bit: false, type: .threadInfoList)
        if let problem = list.problem { warnings.append(problem) }
        var infos: [UInt32: (startAddress: UInt64, createTime: UInt64)] = [:]
        for offset in list.entryOffsets {
            guard let id = bytes.u32(offset), let created = bytes.u64(offset + 16), let start = bytes.u64(offset + 48)
            else { continue }
            infos[id] = (start, created)
        }
        return infos
    }

    /// The names of a ThreadNames stream, by thread id (entries: id, then a 64-bit RVA of a `MINIDUMP_STRING`).
    static func names(in bytes: MinidumpBytes, location: MinidumpLocation, warnings: inout [String]) -> [UInt32: String]
    {
        let list = MinidumpList(bytes, location: location, entrySize: 12, type: .threadNames)
        if let problem = list.problem { warnings.append(problem) }
        var names: [UInt32: String] = [:]
        for offset in list.entryOffsets {
            guard let id = bytes.u32(offset), let rva = bytes.u64(offset + 4), rva < UInt64(UInt32.max),
                let name = bytes.utf16String(at: UInt32(rva)), !name.isEmpty
            else { continue }
            names[id] = name
        }
        return names
    }
}

/// What is wrong with one piece of a stream, in words.
package struct MinidumpStreamProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problem, in one line.
    package var description: String
    init(_ description: String) { self.description = description }
}
