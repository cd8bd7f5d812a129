import CrashLogs
import ObjectFiles
import PostmortemCore

/// A core file unwound: every thread's stack walked with call-frame information, written as a report that the
/// symbolicator fills and the renderers print as they print logs.
package struct CoreUnwinding {
    /// The core.
    package let core: CoreFile
    /// Its images and the binaries found for them.
    package let images: MappedImages
    /// Each thread's stack, in the core's order.
    package let stacks: [UnwoundStack]

    /// Reads the core at `path`, finds its binaries with `finder` and walks every thread, at most `frameLimit` frames each.
    /// - Throws: ``DumpFileError`` when the file is not a core this reader knows.
    package init(path: String, finder: BinaryFinder, frameLimit: Int = StackWalker.defaultFrameLimit)
        throws(DumpFileError)
    {
        self.init(core: try CoreFile(path: path), finder: finder, frameLimit: frameLimit)
    }

    /// Finds the binaries of `core` with `finder` and walks every thread, at most `frameLimit` frames each, scanning the
    /// stack where CFI and frame pointers fail when `scansStack`.
    package init(
        core: CoreFile, finder: BinaryFinder, frameLimit: Int = StackWalker.defaultFrameLimit, scansStack: Bool = false
    ) {
        let images = MappedImages(core: core, finder: finder)
        var walker = StackWalker(memory: core.memory, callFrames: images, frameLimit: frameLimit)
        walker.scansStack = scansStack
        self.core = core
        self.images = images
        stacks = core.threads.map { walker.walk(from: $0.registers) }
    }

    /// The report of the walk, in the `elf-core` layout.
    package var report: CrashReport {
        let crashImages = images.crashImages(architecture: core.architecture.rawValue)
        let threads = zip(core.threads, stacks).enumerated().map { number, pair in
            let (thread, stack) = pair
            let frames = images.writtenFrames(of: stack)
            // The kernel writes the thread that took the signal first.
            var written = ELFCoreReportWriter.Thread(
                id: Int(thread.id), crashed: number == 0 && core.signal != nil, frames: frames,
                stopReason: stack.stopReason)
            written.registers = thread.registers.named
            return written
        }
        return ELFCoreReportWriter(header: header, exception: exception, threads: threads, images: crashImages)
            .report(warnings: core.warnings + images.warnings)
    }

    /// What went wrong: the signal and its code, and the address that faulted.
    var exception: CrashReport.Exception? {
        guard let signal = core.signal else { return nil }
        var message = signal.codeDescription ?? ""
        if let address = signal.faultAddress {
            message += (message.isEmpty ? "" : ", ") + "fault address 0x" + String(address, radix: 16)
        }
        return CrashReport.Exception(type: signal.name, message: message.isEmpty ? nil : message)
    }

    /// `Core dump of mt (pid 7461): ./mt --flag` and the signal's line.
    var header: [String] {
        let name =
            core.process?.name ?? images.images.first {
                $0.binary?.kind == .executable || $0.name == core.process?.name
            }?.name ?? "a process"
        var first = ELFCoreReportWriter.headerStart + name
        if let pid = core.process?.processID ?? core.threads.first?.id { first += " (pid \(pid))" }
        if let arguments = core.process?.arguments, !arguments.isEmpty { first += ": " + arguments }
        var lines = [first]
        if let exception {
            lines.append("Signal: " + (exception.type ?? "") + (exception.message.map { " (\($0))" } ?? ""))
        }
        return lines
    }
}
