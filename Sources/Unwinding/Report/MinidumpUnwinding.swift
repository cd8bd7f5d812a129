import CrashLogs
import ObjectFiles
import PostmortemCore

/// A minidump unwound: every thread's stack walked from its context with the call-frame information of its modules'
/// binaries, written as a report that the symbolicator fills and the renderers print as they print logs.
package struct MinidumpUnwinding {
    /// The dump.
    package let dump: MinidumpFile
    /// Its modules and the binaries found for them; `nil` when its architecture is not one walked here.
    package let images: MappedImages?
    /// Each thread's stack, in the dump's order (`nil` for a thread whose context could not be read).
    package let stacks: [UnwoundStack?]

    /// Reads the minidump at `path`, finds its modules' binaries with `finder` and walks every thread, at most
    /// `frameLimit` frames each.
    /// - Throws: ``DumpFileError`` when the file is not a minidump.
    package init(path: String, finder: BinaryFinder, frameLimit: Int = StackWalker.defaultFrameLimit)
        throws(DumpFileError)
    {
        self.init(dump: try MinidumpFile(path: path), finder: finder, frameLimit: frameLimit)
    }

    /// Finds the binaries of `dump`'s modules with `finder` and walks every thread, at most `frameLimit` frames each,
    /// scanning the stack where CFI and frame pointers fail when `scansStack`.
    package init(
        dump: MinidumpFile, finder: BinaryFinder, frameLimit: Int = StackWalker.defaultFrameLimit,
        scansStack: Bool = false
    ) {
        self.dump = dump
        guard let architecture = dump.architecture else {
            images = nil
            stacks = dump.threads.map { _ in nil }
            return
        }
        let images = MappedImages(
            modules: dump.modules, memory: dump.memory, architecture: architecture, finder: finder,
            near: FilePath.directory(of: dump.path))
        let memory: any MemoryReader =
            architecture.wordSize == 4 ? ThirtyTwoBitMemory(memory: dump.memory) : dump.memory
        var walker = StackWalker(memory: memory, callFrames: images, frameLimit: frameLimit)
        walker.scansStack = scansStack
        self.images = images
        // The thread that wrote the dump (an in-process handler's) was running while it wrote: its stack is not walked,
        // as minidump-stackwalk does not walk it.
        stacks = dump.threads.map { thread in
            thread.id == dump.breakpad?.dumpThreadID ? nil : thread.registers.map { walker.walk(from: $0) }
        }
    }

    /// The report of the walk, in the `minidump` layout: the crashing thread first.
    package var report: CrashReport {
        let crashImages =
            images?.crashImages(architecture: dump.architecture?.rawValue)
            ?? dump.modules.map { module in
                CrashImage(
                    name: module.name, path: module.path, identifier: module.codeID, architecture: nil,
                    loadAddress: module.baseAddress, endAddress: module.baseAddress &+ module.size)
            }
        var threads: [ELFCoreReportWriter.Thread] = []
        for (thread, stack) in zip(dump.threads, stacks) {
            let crashed = thread.id == dump.exception?.threadID
            var written = ELFCoreReportWriter.Thread(
                id: Int(thread.id), name: thread.name, crashed: crashed,
                frames: stack.map { images?.writtenFrames(of: $0) ?? [] } ?? [],
                stopReason: stack.map(\.stopReason) ?? Optional(unwalkedReason(thread)))
            written.registers = thread.registers?.named ?? []
            if crashed { threads.insert(written, at: 0) } else { threads.append(written) }
        }
        var warnings = dump.warnings
        if dump.architecture == nil {
            warnings.append(
                "the dump is of \(dump.system.map { "an \($0.cpuName)" } ?? "an unknown") machine: only x86-64 and ARM64 stacks are walked"
            )
        }
        return ELFCoreReportWriter(
            format: .minidump, header: header, exception: exception, threads: threads, images: crashImages,
            footer: missingSymbols
        )
        .report(warnings: warnings)
    }

    /// Why `thread` was not walked.
    private func unwalkedReason(_ thread: MinidumpThread) -> String {
        if thread.id == dump.breakpad?.dumpThreadID {
            return "this thread wrote the dump: its stack changed while it was saved"
        }
        if images == nil { return "the dump is of a machine whose stacks are not walked here" }
        return thread.problem ?? "its registers are not known"
    }

    /// What went wrong, for the report's `exception`: the reason's words (`SIGSEGV`, `SEGV_MAPERR`).
    var exception: CrashReport.Exception? {
        guard let reason = reason else { return nil }
        // The separator is found with `firstRange(of:)` over bytes: the string-processing `split` instantiates its
        // generic types at run time, a noticeable part of a small dump's run.
        guard let separator = reason.utf8.firstRange(of: " / ".utf8) else {
            return CrashReport.Exception(type: reason, message: nil)
        }
        return CrashReport.Exception(
            type: String(reason[..<separator.lowerBound]), message: String(reason[separator.upperBound...]))
    }

    /// The crash's reason as minidump-stackwalk words it.
    var reason: String? { dump.exception?.reason(platform: dump.system?.platform) }

    /// `Minidump of threads (pid 7461): ./threads`, the crash's reason and address, the assertion and annotations.
    var header: [String] {
        let executable = dump.modules.first
        let name = dump.linux.commandLine?.first.map(FilePath.fileName(of:)) ?? executable?.name ?? "a process"
        var first = ELFCoreReportWriter.minidumpHeaderStart + name
        if let pid = dump.process?.processID ?? dump.linux.processID { first += " (pid \(pid))" }
        if let arguments = dump.linux.commandLine, !arguments.isEmpty {
            first += ": " + arguments.joined(separator: " ")
        }
        var lines = [first]
        if let system = dump.system {
            let version = "\(system.version.major).\(system.version.minor).\(system.version.build)"
            lines.append(
                "System: \(system.platform?.rawValue ?? "platform 0x" + String(system.platformID, radix: 16)) \(version)"
                    + (system.versionText.map { " \($0)" } ?? "") + ", \(system.cpuName), \(system.processorCount) CPU"
                    + (system.processorCount == 1 ? "" : "s"))
        }
        if let exception = dump.exception, let reason {
            lines.append(ELFCoreReportWriter.crashReasonStart + reason)
            let crashAddress = exception.crashAddress(platform: dump.system?.platform)
            var address = "Crash address: 0x" + String(crashAddress, radix: 16)
            // A fault just above zero is a field read (or written) through a null pointer.
            let isAccessFault = exception.signal.faultAddress != nil || crashAddress != exception.address
            if isAccessFault, crashAddress > 0, crashAddress < 4096 {
                address += " (null pointer + 0x" + String(crashAddress, radix: 16) + ")"
            }
            lines.append(address)
        }
        if let assertion = dump.assertion { lines.append("Assertion: " + assertion) }
        if let crashpad = dump.crashpad {
            for (key, value) in crashpad.simple.sorted(by: { $0.key < $1.key }) {
                lines.append("Annotation: \(key)=\(value)")
            }
            for (index, module) in crashpad.modules.sorted(by: { $0.key < $1.key }) {
                let owner = dump.modules.indices.contains(index) ? dump.modules[index].name : "module \(index)"
                for entry in module.list { lines.append("Annotation (\(owner)): \(entry)") }
                for (key, value) in module.simple.merging(module.objects, uniquingKeysWith: { first, _ in first })
                    .sorted(by: { $0.key < $1.key })
                {
                    lines.append("Annotation (\(owner)): \(key)=\(value)")
                }
            }
        }
        return lines
    }

    /// One line per module whose binary was not found, saying where it was looked for.
    var missingSymbols: [String] {
        guard let images else { return [] }
        let missing = images.images.filter { $0.binary == nil }
        guard !missing.isEmpty else { return [] }
        return ["", "No binary found for:"]
            + missing.map {
                "\($0.name) \($0.buildID.flatMap { BreakpadDebugID.of(buildID: $0) } ?? "-"): \($0.problem ?? "not found")"
            }
    }
}
