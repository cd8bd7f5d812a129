import ArgumentParser
import BreakpadSymbols
import CommandLineOptions
import Dispatch
import ObjectFiles
import PostmortemCore
import Synchronization

/// `postmortem dump-syms BINARY…`: the Breakpad symbol file of each binary, as Mozilla's `dump_syms --inlines` writes
/// it, for crash pipelines that read `.sym` files (minidump-stackwalk, Socorro, Tecken, Sentry, lldb).
struct DumpSymsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-syms",
        abstract:
            "Write the Breakpad symbol file (.sym) of binaries: functions, lines, inlined calls, public symbols, STACK CFI."
    )

    @Option(
        name: [.customShort("o"), .customLong(CommandOption.output.long)],
        help: "The file to write, for one binary (- or none: standard output).",
        completion: .file())
    var output: String?

    @Option(
        name: .customLong("store"),
        help: "A symbol store to write into, as DIR/NAME/DEBUGID/NAME.sym (the layout symbol servers serve).",
        completion: .directory)
    var store: String?

    @OptionGroup var debugPathOption: DebugPathOption

    @Option(
        name: CommandOption.arch.names,
        help: "The slice of a universal (fat) Mach-O file to write (x86_64, arm64, …).")
    var arch: Architecture?

    @Flag(
        name: .customLong("no-inlines"),
        help: "Leave out INLINE and INLINE_ORIGIN records (inlined code keeps its call's line).")
    var noInlines = false

    @OptionGroup var offlineOption: OfflineOption

    @Argument(
        help: "The binaries (ELF executables and shared libraries, or their debug files; Mach-O files and dSYMs).",
        completion: .file())
    var binaries: [String]

    func validate() throws {
        if binaries.count > 1, store == nil {
            throw ValidationError("several binaries need --store DIR (one symbol file each)")
        }
        if binaries.count > 1, output != nil {
            throw ValidationError("-o names one file: give one binary, or use --store DIR for several")
        }
    }

    func run() throws {
        DebugPathCheck.reportUnsearchable(debugPathOption.debugPaths)
        let locator = DebugFileLocator(
            search: DebugFileSearch(roots: debugPathOption.debugPaths),
            remote: DebuginfodSetup.remoteDebugFiles(offline: offlineOption.offline))
        let generator = "postmortem \(Postmortem.configuration.version)"
        let results = ThreadResults<Outcome>(count: binaries.count)
        // Each binary is read on its own: two at a time (the machines this runs on have two cores or more).
        DispatchQueue.concurrentPerform(iterations: min(2, binaries.count)) { lane in
            for index in stride(from: lane, to: binaries.count, by: 2) {
                results.set(index, dump(binaries[index], locator: locator, generator: generator))
            }
        }
        var failed = false
        for (index, result) in results.values.enumerated() {
            result.messages.forEach { Output.error("\(binaries[index]): \($0)") }
            failed = failed || !result.succeeded
        }
        if failed { throw ExitCode.failure }
    }

    private struct Outcome: Sendable {
        var succeeded: Bool
        var messages: [String]
    }

    private func dump(_ path: String, locator: DebugFileLocator, generator: String) -> Outcome {
        let binary: ObjectFile
        do { binary = try ObjectFileReader.read(path: path, architecture: arch) } catch {
            let advice = error.code == .ambiguousArchitecture ? "; choose one with --arch" : ""
            return Outcome(succeeded: false, messages: [error.detail + advice])
        }
        if binary.format == .elf, binary.buildID == nil {
            return Outcome(
                succeeded: false,
                messages: ["has no build-id, which names a module in a symbol file (link with --build-id)"])
        }
        var messages: [String] = []
        var debugFile: ObjectFile? = binary.hasDWARF ? binary : nil
        if debugFile == nil {
            let lookup = locator.locateDebugFile(for: binary)
            debugFile = lookup.debugFile
            messages += lookup.rejections.map { "passed over \($0.path): \($0.reason)" }
            if debugFile == nil {
                messages.append(
                    "no debug information (no DWARF, and no debug file found: give its root with -d DIR); writing public symbols and STACK CFI only"
                )
            }
        }
        var builder = SymbolFileBuilder(
            binary: binary, debugFile: debugFile, writesInlines: !noInlines, generator: generator)
        if let debugFile, let lookup = locator.locateSupplementaryFile(for: debugFile) {
            builder.supplementaryFile = lookup.debugFile
            messages += lookup.rejections.map { "passed over \($0.path): \($0.reason)" }
            if lookup.debugFile == nil, let link = debugFile.supplementaryLink {
                messages.append(
                    "its dwz common file \(link.path) was not found (give its root with -d DIR); names it holds are missing"
                )
            }
        }
        let built: (file: BreakpadSymbolFile, problems: [String])
        do {
            built = try builder.build()
        } catch {
            return Outcome(succeeded: false, messages: messages + [error.detail])
        }
        messages += built.problems
        do {
            if let store {
                let module = built.file.module
                try SymbolFileText.write(
                    built.file,
                    toPath: FilePath.join(
                        store, SymbolStoreLayout.relativePath(module: module.name, debugID: module.debugID)))
            }
            if store == nil || output != nil {
                if let output, output != "-" {
                    try SymbolFileText.write(built.file, toPath: output)
                } else {
                    Output.flush()
                    SymbolFileText.write(built.file) { FileSystem.Writer.standardOutput.write($0) }
                }
            }
        } catch {
            return Outcome(succeeded: false, messages: messages + ["\(error)"])
        }
        return Outcome(succeeded: true, messages: messages)
    }
}

/// One result per binary, set by the thread that dumped it.
private final class ThreadResults<Value: Sendable>: Sendable {
    private let slots: Mutex<[Value?]>

    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: Value) { slots.withLock { $0[index] = value } }

    var values: [Value] { slots.withLock { $0.map { $0! } } }
}
