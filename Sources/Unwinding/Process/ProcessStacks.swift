import CrashLogs
import Glibc
import ObjectFiles
import PostmortemCore

/// Every thread of a live process unwound, as `eu-stack -p` does: its mappings read from `/proc`, its binaries found
/// and opened while it runs, then its threads stopped with ptrace only for as long as reading their registers and
/// walking their stacks takes.
package struct ProcessStacks {
    /// The process.
    package let processID: Int32
    /// Its images and the binaries found for them.
    package let images: MappedImages
    /// Each thread: id, name, stack.
    package let threads: [(id: Int32, name: String?, stack: UnwoundStack)]
    /// How long the threads were stopped, in nanoseconds.
    package let stoppedNanoseconds: UInt64
    private let commandLine: String

    /// Reads and walks process `processID`, at most `frameLimit` frames a thread.
    /// - Throws: ``ProcessStackError`` when there is no such process or it may not be traced.
    package init(processID: Int32, finder: BinaryFinder, frameLimit: Int = StackWalker.defaultFrameLimit)
        throws(ProcessStackError)
    {
        #if arch(arm64)
            let architecture = UnwindArchitecture.arm64
        #else
            let architecture = UnwindArchitecture.x86_64
        #endif
        guard let maps = try? FileSystem.read("/proc/\(processID)/maps") else { throw .noProcess(processID) }
        let mappings = ProcessMapping.parse(String(decoding: maps, as: UTF8.self))
        let memory = ProcessMemory(processID: processID, mappings: mappings)
        let images = MappedImages(
            mappings: mappings.map(\.fileMapping), memory: memory, architecture: architecture, finder: finder,
            near: nil, virtualDSOAddress: mappings.first { $0.path == VirtualDSO.path }?.start)
        // The images' call-frame information is read before the threads stop, so that they stop for the walk alone.
        for image in images.images { _ = images.callFrames(at: image.loadAddress) }
        let attachment = try ProcessAttachment(processID: processID, architecture: architecture)
        let walker = StackWalker(memory: memory, callFrames: images, frameLimit: frameLimit)
        threads = attachment.threads.map { ($0.id, $0.name, walker.walk(from: $0.registers)) }
        attachment.detach()
        stoppedNanoseconds = ProcessAttachment.now() - attachment.stoppedAt
        self.processID = processID
        self.images = images
        let arguments = (try? FileSystem.read("/proc/\(processID)/cmdline", maximumSize: 4096)) ?? []
        commandLine = arguments.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
    }

    /// The stacks as a report, in the `process` layout.
    package var report: CrashReport {
        let crashImages = images.crashImages(architecture: nil)
        let written = threads.map { thread in
            let frames = images.writtenFrames(of: thread.stack)
            var written = ELFCoreReportWriter.Thread(
                id: Int(thread.id), name: thread.name, crashed: false, frames: frames,
                stopReason: thread.stack.stopReason)
            written.registers = thread.stack.frames.first?.registers.named ?? []
            return written
        }
        let name = threads.first?.name.map { " (\($0))" } ?? ""
        let tenths = stoppedNanoseconds / 100_000
        let stopped = "\(tenths / 10).\(tenths % 10)"
        let header = [
            ELFCoreReportWriter.processHeaderStart + "\(processID)\(name): \(commandLine)",
            "Stopped for \(stopped) ms"
        ]
        return ELFCoreReportWriter(
            format: .process, header: header, exception: nil, threads: written, images: crashImages
        ).report()
    }
}
