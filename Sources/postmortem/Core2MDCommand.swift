import ArgumentParser
import CommandLineOptions
import ObjectFiles
import PostmortemCore
import Unwinding

/// `postmortem core2md CORE -o DUMP`: a minidump of a core file, as Breakpad's `core2md` writes one: the threads'
/// registers and stacks, the modules with their build-ids, the signal. A core of gigabytes becomes a dump of the
/// stacks that matter, which crash reporters, minidump-stackwalk and lldb read.
struct Core2MDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "core2md",
        abstract: "Write a minidump of a core file: each thread's registers and stack, the modules and their build-ids."
    )

    @Option(
        name: [.customShort("o"), .customLong(CommandOption.output.long)],
        help: "The minidump to write (- for standard output).", completion: .file())
    var output: String

    @OptionGroup var debugPathOption: DebugPathOption

    @Option(
        name: CommandOption.executable.names,
        help: "The program's binary, for a core whose path for it is wrong or gone (as eu-stack's -e).",
        completion: .file())
    var executable: String?

    @Option(
        name: .customLong("max-stack"), help: "The most bytes of each thread's stack kept, from its stack pointer up.")
    var maxStack: Int = 8 << 20

    @OptionGroup var offlineOption: OfflineOption

    @Argument(help: "The core file.", completion: .file())
    var core: String

    func run() throws {
        DebugPathCheck.reportUnsearchable(debugPathOption.debugPaths)
        let read: CoreFile
        do { read = try CoreFile(path: core) } catch {
            Output.error(error.description)
            throw ExitCode.failure
        }
        read.warnings.forEach { Output.error("\(core): \($0)") }
        let finder = BinaryFinder(
            debugPaths: debugPathOption.debugPaths, executable: executable,
            remote: DebuginfodSetup.remoteDebugFiles(offline: offlineOption.offline))
        let images = MappedImages(core: read, finder: finder)
        for image in images.images where image.buildID == nil {
            Output.error(
                "\(core): \(image.name): no build-id in the core or a binary found for it (\(image.problem ?? "")); its module has none"
            )
        }
        let modified = FileSystem.status(core)?.modified ?? 0
        let bytes = CoreMinidumpWriter(core: read, images: images, stackLimit: max(0, maxStack))
            .minidump(timeStamp: UInt32(clamping: modified))
        let sink = try OutputSink(path: output == "-" ? nil : output)
        sink.write(bytes)
    }
}
