import ObjectFiles
import PostmortemCore

/// Writes a minidump of an ELF core, as Breakpad's `core2md` does: each thread's registers and the stack above its
/// stack pointer, the modules with their build-ids, the signal; and, beyond the stacks, the bytes a walk of the core
/// reads elsewhere (a Swift task's async contexts on the heap), so that the dump walks as the core does. Small enough
/// to ship off a machine, and read by minidump-stackwalk, lldb and Postmortem alike.
package struct CoreMinidumpWriter {
    /// The core.
    package let core: CoreFile
    /// Its images, found as a walk finds them (their build-ids and sizes go in the module list).
    package let images: MappedImages
    /// The most bytes of a thread's stack kept, from its stack pointer up (a stack that overflowed has megabytes).
    package var stackLimit: Int

    /// A writer of `core`'s minidump, with `images` as its modules and at most `stackLimit` bytes of each stack.
    package init(core: CoreFile, images: MappedImages, stackLimit: Int = 8 << 20) {
        self.core = core
        self.images = images
        self.stackLimit = stackLimit
    }

    /// Linux, for SystemInfo's platform (Breakpad's `MD_OS_LINUX`).
    static let linuxPlatform: UInt32 = 0x8201
    /// What a context holds: its architecture's flag with CONTEXT_CONTROL and CONTEXT_INTEGER.
    static func contextFlags(_ architecture: UnwindArchitecture) -> UInt32 {
        architecture == .x86_64 ? 0x0010_0003 : 0x0040_0003
    }

    /// The minidump's bytes; `timeStamp` is when it says it was written (seconds since 1970).
    package func minidump(timeStamp: UInt32 = 0) -> [UInt8] {
        let hasException = core.signal != nil
        let commandLine = core.process.map { $0.arguments.split(separator: " ").map(String.init) } ?? []
        let streamCount =
            5 + (hasException ? 1 : 0) + (commandLine.isEmpty ? 0 : 1) + (core.auxiliaryVector.isEmpty ? 0 : 1)
        var builder = MinidumpBuilder(streamCount: streamCount)

        // Contexts and stacks first, so that the thread list and the exception can point at them.
        var contexts: [MinidumpLocation] = []
        var stacks: [(start: UInt64, location: MinidumpLocation)] = []
        var stackRanges: [Range<UInt64>] = []
        for thread in core.threads {
            builder.align(16)
            let contextStart = builder.offset
            writeContext(thread.registers, into: &builder)
            contexts.append(MinidumpLocation(size: builder.offset - contextStart, rva: contextStart))
            let (start, bytes) = stack(of: thread)
            builder.align(16)
            stacks.append((start, MinidumpLocation(size: UInt32(bytes.count), rva: builder.offset)))
            stackRanges.append(start..<start + UInt64(bytes.count))
            builder.raw(bytes)
        }
        var extra: [(start: UInt64, location: MinidumpLocation)] = []
        for (start, bytes) in walkedMemory(outside: stackRanges) {
            builder.align(16)
            extra.append((start, MinidumpLocation(size: UInt32(bytes.count), rva: builder.offset)))
            builder.raw(bytes)
        }
        let versionText = builder.string("")
        let names = images.images.map { builder.string($0.path) }
        let codeViews = images.images.map { image -> MinidumpLocation in
            builder.align(4)
            let start = builder.offset
            builder.u32(MinidumpModule.elfCodeViewSignature)
            builder.raw(image.buildID?.bytes ?? [])
            return MinidumpLocation(size: builder.offset - start, rva: start)
        }

        builder.stream(.systemInfo) { out in
            out.u16(core.architecture == .x86_64 ? 9 : 12)
            out.u16(0) // processor level
            out.u16(0) // processor revision
            out.raw([1, 0]) // processors (not in a core), product type
            out.u32(0); out.u32(0); out.u32(0) // OS version
            out.u32(Self.linuxPlatform)
            out.u32(versionText)
            out.u16(0); out.u16(0) // suite mask, reserved
            out.zeros(24) // CPU information
        }
        builder.stream(.miscInfo) { out in
            out.u32(24)
            out.u32(core.process == nil ? 0 : 1) // MINIDUMP_MISC1_PROCESS_ID
            out.u32(UInt32(bitPattern: core.process?.processID ?? 0))
            out.zeros(12)
        }
        builder.stream(.threadList) { out in
            out.u32(UInt32(core.threads.count))
            for (index, thread) in core.threads.enumerated() {
                out.u32(UInt32(bitPattern: thread.id))
                out.zeros(12) // suspend count, priority class, priority
                out.u64(0) // TEB
                out.u64(stacks[index].start)
                out.u32(stacks[index].location.size)
                out.u32(stacks[index].location.rva)
                out.u32(contexts[index].size)
                out.u32(contexts[index].rva)
            }
        }
        if let signal = core.signal, let first = core.threads.first {
            builder.stream(.exception) { out in
                out.u32(UInt32(bitPattern: first.id))
                out.u32(0)
                out.u32(UInt32(bitPattern: signal.number))
                out.u32(UInt32(bitPattern: signal.code ?? 0))
                out.u64(0) // nested record
                out.u64(signal.faultAddress ?? 0)
                out.u32(0); out.u32(0) // parameter count, alignment
                out.zeros(15 * 8)
                out.u32(contexts[0].size)
                out.u32(contexts[0].rva)
            }
        }
        builder.stream(.moduleList) { out in
            out.u32(UInt32(images.images.count))
            for (index, image) in images.images.enumerated() {
                out.u64(image.loadAddress)
                out.u32(UInt32(clamping: image.endAddress &- image.loadAddress))
                out.u32(0); out.u32(0) // checksum, time stamp
                out.u32(names[index])
                out.zeros(52) // version information
                out.u32(codeViews[index].size)
                out.u32(codeViews[index].rva)
                out.zeros(8 + 16) // misc record, reserved
            }
        }
        builder.stream(.memoryList) { out in
            out.u32(UInt32(stacks.count + extra.count))
            for stack in stacks + extra {
                out.u64(stack.start)
                out.u32(stack.location.size)
                out.u32(stack.location.rva)
            }
        }
        if !commandLine.isEmpty {
            builder.stream(.linuxCommandLine) { out in
                for argument in commandLine { out.raw(Array(argument.utf8) + [0]) }
            }
        }
        if !core.auxiliaryVector.isEmpty {
            builder.stream(.linuxAuxv) { out in
                for (key, value) in core.auxiliaryVector.sorted(by: { $0.key < $1.key }) {
                    out.u64(key)
                    out.u64(value)
                }
                out.u64(0); out.u64(0)
            }
        }
        return builder.file(timeStamp: timeStamp)
    }

    /// The blocks of memory outside `stacks` that walking every thread reads, with their bytes, where the core holds them.
    private func walkedMemory(outside stacks: [Range<UInt64>]) -> [(start: UInt64, bytes: [UInt8])] {
        let recording = RecordingMemory(core.memory)
        let walker = StackWalker(memory: recording, callFrames: images, frameLimit: StackWalker.defaultFrameLimit)
        for thread in core.threads { _ = walker.walk(from: thread.registers) }
        let blocks = recording.readBlocks().flatMap { block -> [Range<UInt64>] in
            // Cut out what the stacks hold already; keep what the core holds of the rest.
            var pieces = [block]
            for stack in stacks {
                pieces = pieces.flatMap { piece -> [Range<UInt64>] in
                    guard piece.overlaps(stack) else { return [piece] }
                    return [
                        piece.lowerBound..<max(piece.lowerBound, stack.lowerBound),
                        min(piece.upperBound, stack.upperBound)..<piece.upperBound
                    ]
                    .filter { !$0.isEmpty }
                }
            }
            return pieces
        }
        return blocks.compactMap { block in
            core.memory.read(Int(block.count), at: block.lowerBound).map { (block.lowerBound, $0) }
        }
    }

    /// The stack memory kept of `thread`: from a little below its stack pointer (x86-64's red zone, which a leaf
    /// function may use) to the end of what the core holds there, at most ``stackLimit`` bytes. A thread whose stack
    /// overflowed has its stack pointer in the guard gap below its stack: the stack is the segment just above it.
    private func stack(of thread: CoreThread) -> (start: UInt64, bytes: [UInt8]) {
        guard let pointer = thread.registers.stackPointer,
            let segment = core.memory.segment(containing: pointer)
                ?? core.memory.segments.first(where: { $0.address > pointer && $0.address - pointer <= 1 << 16 })
        else { return (0, []) }
        let redZone: UInt64 = core.architecture == .x86_64 ? 128 : 0
        let start = max(segment.address, pointer &- redZone)
        let held = segment.address &+ segment.fileSize
        guard held > start else { return (start, []) }
        let count = Int(min(held - start, UInt64(stackLimit)))
        return (start, core.memory.read(count, at: start) ?? [])
    }

    private func writeContext(_ registers: RegisterSet, into out: inout MinidumpBuilder) {
        let start = out.bytes.count
        switch core.architecture {
        case .x86_64:
            out.zeros(MinidumpContext.amd64Size)
            out.patch32(Self.contextFlags(.x86_64), at: UInt32(start + 48))
            // rax rcx rdx rbx rsp rbp rsi rdi r8…r15 rip, from offset 120, by DWARF number.
            let order: [UInt16] = [0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16]
            for (slot, register) in order.enumerated() {
                out.patch64(registers[register] ?? 0, at: start + 120 + slot * 8)
            }
        case .arm64:
            out.zeros(MinidumpContext.arm64Size)
            out.patch32(Self.contextFlags(.arm64), at: UInt32(start))
            for register in 0...32 { out.patch64(registers[UInt16(register)] ?? 0, at: start + 8 + register * 8) }
        case .x86, .arm:
            // No core is of x86 or 32-bit ARM (``UnwindArchitecture/init(elfMachine:)`` gives neither): an empty
            // context of the size.
            out.zeros(core.architecture == .x86 ? MinidumpContext.x86Size : MinidumpContext.armSize)
        }
    }
}

private extension MinidumpBuilder {
    mutating func patch64(_ value: UInt64, at offset: Int) {
        patch32(UInt32(truncatingIfNeeded: value), at: UInt32(offset))
        patch32(UInt32(truncatingIfNeeded: value >> 32), at: UInt32(offset + 4))
    }
}
